// @db once
/**
 * Every lab and script-management route, table-driven (cases.ts): 40003 without the key and
 * nothing written; 40001 naming the field and nothing written; success with only the declared
 * key; and each change's audit row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditMaxId, auditSince, expectFieldError, expectOk, fingerprint } from '../business/helpers.js';
import { CASES } from './cases.js';
import { startLab, type LabEnv } from './env.js';

let env: LabEnv;
beforeAll(async () => {
  env = await startLab();
});
afterAll(async () => {
  await env?.s.close();
});

describe('lab routes', () => {
  it.each(CASES.map((c, i) => [`${c.method} ${c.path}#${i}`, c] as const))('%s', async (_name, c) => {
    const extra = c.prepare ? await c.prepare(env) : {};
    const call = (client: typeof env.admin, payload: Record<string, unknown>) => (c.method === 'GET' ? client.get(c.path, payload) : client.post(c.path, payload));
    const okPayload = c.ok(env.fx, extra);
    const before = c.table ? await fingerprint(env.s, c.table) : '';
    const audit0 = await auditMaxId(env.s);

    const denied = await call(env.outsider, okPayload);
    expect(denied.body.code, JSON.stringify(denied.body)).toBe(40003);
    expectFieldError(await call(env.admin, c.bad(env.fx, extra)), c.badField);
    if (c.table) expect(await fingerprint(env.s, c.table)).toBe(before);
    expect(await auditMaxId(env.s)).toBe(audit0);

    const holder = await env.as(c.key);
    const r = await call(holder, okPayload);
    expectOk(r, `${c.method} ${c.path}`);
    if (c.method === 'GET' && 'page_size' in okPayload) expect(Array.isArray(r.body.data.list)).toBe(true);

    if (c.audit) {
      if (c.table) expect(await fingerprint(env.s, c.table)).not.toBe(before);
      const rows = await auditSince(env.s, audit0);
      const a = rows.find((x) => x.action === c.audit!.action && x.resource === c.audit!.resource);
      expect(a, `audit ${c.audit.action} ${c.audit.resource} in ${JSON.stringify(rows.map((x) => [x.action, x.resource]))}`).toBeDefined();
      expect(a!.actor_email).toContain('@');
    } else if (c.method === 'POST') {
      expect(await auditMaxId(env.s)).toBe(audit0);
    }
  });
});
