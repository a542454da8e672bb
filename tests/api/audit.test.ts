// @db once
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/password.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(async () => {
  await s?.close();
});

interface AuditRow {
  actor_id: number | null;
  actor_email: string;
  action: string;
  resource: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  ip: string;
  user_agent: string;
  created_at: string;
}
const rows = async (action: string, resource: string) =>
  (await admin.ok<{ list: AuditRow[] }>('GET', 'audit-log/list', { action, resource, page_size: 100 })).list;

describe('audit rows', () => {
  it('login and failed login are recorded with address and user agent', async () => {
    await s.anon().post('user/login', { email: ADMIN_EMAIL, password: 'bad-password-1' });
    const login = await rows('login', 'session');
    expect(login[0]).toMatchObject({ actor_email: ADMIN_EMAIL, ip: '127.0.0.1', user_agent: expect.any(String) });
    expect(login[0].actor_id).toBeGreaterThan(0);
    const failed = await rows('login_failed', 'session');
    expect(failed[0]).toMatchObject({ actor_email: ADMIN_EMAIL, after: { reason: 'wrong_password' } });
  });

  it('role create/update/delete carry before and after', async () => {
    const created = await admin.ok('POST', 'role/create', { name: 'Auditors', permission_ids: [] });
    await admin.ok('POST', 'role/update', { id: created.id, name: 'Auditors 2' });
    await admin.ok('POST', 'role/delete', { id: created.id });
    const [c] = await rows('create', 'role');
    expect(c).toMatchObject({ target_id: String(created.id), before: null, after: { name: 'Auditors', is_super_admin: false } });
    const [u] = await rows('update', 'role');
    expect(u).toMatchObject({ before: { name: 'Auditors' }, after: { name: 'Auditors 2' } });
    const [d] = await rows('delete', 'role');
    expect(d).toMatchObject({ before: { name: 'Auditors 2' }, after: null });
  });

  it('filters by actor (id or email) and time range; all returns an array', async () => {
    const me = (await admin.get('User/Get')).body.data;
    const byId = await admin.ok('GET', 'audit-log/list', { actor: me.id });
    const byEmail = await admin.ok('GET', 'audit-log/list', { actor: ADMIN_EMAIL });
    expect(byId.total).toBeGreaterThan(0);
    expect(byEmail.total).toBe(byId.total);
    const future = await admin.ok('GET', 'audit-log/list', { start_time: new Date(Date.now() + 3600_000).toISOString() });
    expect(future).toEqual({ list: [], total: 0, page: 1, page_size: 10 });
    const all = await admin.ok('GET', 'audit-log/all', { resource: 'role' });
    expect(Array.isArray(all)).toBe(true);
    expect(all.length).toBe(3);
  });

  it('logout is recorded; no password or token appears in any audit row', async () => {
    const c = await s.login();
    const loggedOutToken = c.token!;
    await c.ok('POST', 'user/logout');
    expect((await rows('logout', 'session')).length).toBe(1);
    const acc = await admin.ok('POST', 'account/create', { email: 'new@example.com', name: 'New', password: 'secret-password-9', role_ids: [] });
    await admin.ok('POST', 'account/reset-password', { id: acc.id, password: 'another-secret-9' });
    await admin.ok('POST', 'user/update-pwd', { old_password: ADMIN_PASSWORD, new_password: 'rotated-secret-9' });
    // back to the harness password (older than the policy for new passwords, which would refuse it)
    await s.db.query('UPDATE accounts SET password_hash = $1 WHERE email = $2', [await hashPassword(ADMIN_PASSWORD), ADMIN_EMAIL]);
    const dump = JSON.stringify((await s.db.query('SELECT * FROM audit_logs')).rows);
    for (const secret of ['secret-password-9', 'another-secret-9', 'rotated-secret-9', ADMIN_PASSWORD, admin.token!, loggedOutToken]) {
      expect(dump).not.toContain(secret);
    }
    const [created] = await rows('create', 'account');
    expect(created.after).toMatchObject({ email: 'new@example.com', name: 'New', status: 1 });
    expect(JSON.stringify(created.after)).not.toMatch(/password/);
  });

  it('a change that fails writes no audit row (same transaction)', async () => {
    const before = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_logs')).rows[0].n;
    const r = await admin.post('role/create', { name: 'x', permission_ids: [999999] });
    expect(r.body.code).toBe(40004);
    const after = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_logs')).rows[0].n;
    expect(after).toBe(before);
  });
});
