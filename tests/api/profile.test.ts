// @db once
/**
 * My info (`GET user/profile`): the caller's own account, roles, keys per module, live sessions
 * and its own latest audit events — never another account's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, startServer, type TestServer } from './harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s?.close();
});

describe('GET user/profile', () => {
  it('anonymous callers are refused', async () => {
    expect((await s.anon().get('user/profile')).body.code).toBe(20001);
  });

  it('the super admin sees itself, every module, its sign-in among its recent events', async () => {
    const admin = await s.login();
    const p = await admin.ok('GET', 'user/profile');
    expect(p.email).toBe(ADMIN_EMAIL);
    expect(p.super_admin).toBe(true);
    expect(p.modules.map((m: { module: string }) => m.module).sort()).toEqual(['admin_center', 'intelligent_text', 'intelligent_voice', 'panda_descendant']);
    expect(p.sessions).toBeGreaterThanOrEqual(1);
    expect(p.last_login_at).toBeTruthy();
    expect(p.recent.some((e: { action: string }) => e.action === 'login')).toBe(true);
  });

  it('a module-limited account sees only its keys and only its own events', async () => {
    const admin = await s.login();
    await admin.ok('POST', 'shop/create', { name: 'Profile test shop', type: 1 }); // an event of the admin, not of the operator
    const op = await s.loginWithKeys(['intelligent_voice', 'intelligent_voice.voice.customer.customer_list']);
    const p = await op.ok('GET', 'user/profile');
    expect(p.super_admin).toBe(false);
    expect(p.roles).toHaveLength(1);
    expect(p.modules).toEqual([{ module: 'intelligent_voice', keys: 2 }]);
    const mine = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_logs WHERE actor_id = $1', [op.accountId]);
    expect(p.recent.length).toBe(Math.min(20, mine.rows[0].n));
    expect(p.recent.every((e: { resource: string; action: string }) => !(e.resource === 'shop' && e.action === 'create'))).toBe(true);
  });
});
