// @db once
/**
 * Every call-center route (cases.ts): an account without the key gets 40003 and nothing is
 * written; invalid input gets 40001 naming the field and nothing is written; an account holding
 * only the declared key succeeds; each change leaves its audit row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditMaxId, auditSince, expectFieldError, expectOk, fingerprint, startBiz, type BizEnv } from '../business/helpers.js';
import { VOICE_CASES, type VoiceFx } from './cases.js';
import { voiceFixtures } from './fixtures.js';

let env: BizEnv;
let fx: VoiceFx;
beforeAll(async () => {
  env = await startBiz();
  fx = await voiceFixtures(env.s);
});
afterAll(async () => {
  await env?.s.close();
});

describe('call-center routes', () => {
  it.each(VOICE_CASES.map((c, i) => [`${c.method} ${c.path} (${c.key.split('.').slice(-2).join('.')})#${i}`, c] as const))('%s', async (_n, c) => {
    const extra = c.prepare ? await c.prepare(env, fx) : {};
    const call = (client: typeof env.admin, payload: Record<string, unknown>) => (c.method === 'GET' ? client.get(c.path, payload) : client.post(c.path, payload));
    const okPayload = c.ok(fx, extra);
    const before = c.table ? await fingerprint(env.s, c.table) : '';
    const audit0 = await auditMaxId(env.s);

    const denied = await call(env.outsider, okPayload);
    expect(denied.body.code, JSON.stringify(denied.body)).toBe(40003);
    expectFieldError(await call(env.admin, c.bad(fx, extra)), c.badField);
    if (c.table) expect(await fingerprint(env.s, c.table)).toBe(before);
    expect(await auditMaxId(env.s)).toBe(audit0);

    const holder = await env.as(c.key);
    const r = await call(holder, okPayload);
    expectOk(r, `${c.method} ${c.path}`);
    c.check?.(r.body.data, fx);

    if (c.audit) {
      if (c.table) expect(await fingerprint(env.s, c.table)).not.toBe(before);
      const rows = await auditSince(env.s, audit0);
      const a = rows.find((x) => x.action === c.audit!.action && x.resource === c.audit!.resource);
      expect(a, `audit ${c.audit.action} ${c.audit.resource} in ${JSON.stringify(rows.map((x) => [x.action, x.resource]))}`).toBeDefined();
      expect(a!.actor_email).toContain('@');
    }
  });
});
