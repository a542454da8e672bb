// @db once
/**
 * Every route of the session / config-center / operations-tools / prompt areas, table-driven
 * (cases.ts): 40003 without the key and nothing written; 40001 naming the field and nothing
 * written; success for an account holding only the declared key; the audit row of each change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { auditMaxId, auditSince, expectFieldError, expectOk, fingerprint } from '../business/helpers.js';
import { CASES, fixtures, type Fx } from './cases.js';

let s: TestServer;
let admin: ApiClient;
let outsider: ApiClient;
let fx: Fx;
const clients = new Map<string, Promise<ApiClient>>();
const as = (key: string) => {
  if (!clients.has(key)) clients.set(key, s.loginWithKeys([key]));
  return clients.get(key)!;
};

beforeAll(async () => {
  s = await startServer({ seedDemo: true });
  admin = await s.login();
  outsider = await s.loginWithKeys(['admin_center.admin.permission.audit_logs']);
  fx = await fixtures(s);
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('session area routes', () => {
  it.each(CASES.map((c, i) => [`${c.method} ${c.path} #${i}`, c] as const))('%s', async (_n, c) => {
    const call = (client: ApiClient, payload: Record<string, unknown>) => (c.method === 'GET' ? client.get(c.path, payload) : client.post(c.path, payload));
    const okPayload = c.ok(fx);
    const before = c.table ? await fingerprint(s, c.table) : '';
    const audit0 = await auditMaxId(s);

    const denied = await call(outsider, okPayload);
    expect(denied.body.code, JSON.stringify(denied.body)).toBe(40003);
    expectFieldError(await call(admin, c.bad(fx)), c.badField);
    if (c.table) expect(await fingerprint(s, c.table)).toBe(before);
    expect(await auditMaxId(s)).toBe(audit0);

    const r = await call(await as(c.key), okPayload);
    expectOk(r, `${c.method} ${c.path}`);
    c.check?.(r.body.data, fx);
    if (c.audit) {
      if (c.table) expect(await fingerprint(s, c.table)).not.toBe(before);
      const rows = await auditSince(s, audit0);
      const a = rows.find((x) => x.action === c.audit!.action && x.resource === c.audit!.resource);
      expect(a, JSON.stringify(rows.map((x) => [x.action, x.resource]))).toBeDefined();
      expect(a!.actor_email).toContain('@');
    } else if (c.method === 'POST') {
      expect(await auditMaxId(s)).toBe(audit0);
    }
  });
});
