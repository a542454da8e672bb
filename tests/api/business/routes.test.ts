// @db once
/**
 * Every business route, table-driven (cases.ts): an account without the permission gets 40003
 * and nothing is written; a validation failure gets 40001 naming the field and nothing is
 * written; an account holding only the declared key succeeds; each change leaves its audit row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASES } from './cases.js';
import { auditMaxId, auditSince, expectFieldError, expectOk, fingerprint, startBiz, type BizEnv } from './helpers.js';

let env: BizEnv;
beforeAll(async () => {
  env = await startBiz();
});
afterAll(async () => {
  await env?.s.close();
});

describe('business routes', () => {
  it.each(CASES.map((c, i) => [`${c.method} ${c.path} (${c.key.split('.').slice(-2).join('.')})#${i}`, c] as const))('%s', async (_name, c) => {
    const extra = c.prepare ? await c.prepare(env) : {};
    const call = (client: typeof env.admin, payload: Record<string, unknown>) =>
      c.method === 'GET' ? client.get(c.path, payload) : client.post(c.path, payload);
    const okPayload = c.ok(env.fx, extra);
    const table = c.table;
    const before = table ? await fingerprint(env.s, table) : '';
    const audit0 = await auditMaxId(env.s);

    // 1. no permission → 40003, nothing written
    const denied = await call(env.outsider, okPayload);
    expect(denied.body.code, JSON.stringify(denied.body)).toBe(40003);
    // 2. invalid input → 40001 naming the field, nothing written
    expectFieldError(await call(env.admin, c.bad(env.fx, extra)), c.badField);
    if (table) expect(await fingerprint(env.s, table)).toBe(before);
    expect(await auditMaxId(env.s)).toBe(audit0);

    // 3. an account holding only the declared key succeeds
    const holder = await env.as(c.key);
    const r = await call(holder, okPayload);
    expectOk(r, `${c.method} ${c.path}`);
    c.check?.(r.body.data, env.fx);

    // 4. the change and its audit row
    if (c.audit) {
      if (table) expect(await fingerprint(env.s, table)).not.toBe(before);
      const rows = await auditSince(env.s, audit0);
      const a = rows.find((x) => x.action === c.audit!.action && x.resource === c.audit!.resource);
      expect(a, `audit row ${c.audit.action} ${c.audit.resource} in ${JSON.stringify(rows.map((x) => [x.action, x.resource]))}`).toBeDefined();
      if (c.audit.before) expect(a!.before).toBeTruthy();
      if (c.audit.after) expect(a!.after).toBeTruthy();
      expect(a!.actor_email).toContain('@');
    } else if (c.method === 'POST' && !table) {
      expect(await auditMaxId(env.s)).toBe(audit0);
    }
  });
});
