import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from './harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s?.close();
});

describe('login throttling', () => {
  it('after 5 failures for one account, even the right password gets 42901 for the window', async () => {
    const c = s.anon();
    for (let i = 0; i < 5; i++) {
      const r = await c.post('user/login', { email: ADMIN_EMAIL, password: `wrong-${i}-password` });
      expect(r.body.code).toBe(40001);
    }
    const r = await c.post('user/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(r.body.code).toBe(42901);
    expect(r.status).toBe(200);
    // failures are stored in the database (survive restarts); the window passes → allowed again
    const n = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM login_failures WHERE email = $1', [ADMIN_EMAIL]);
    expect(n.rows[0].n).toBe(5);
    await s.db.query(`UPDATE login_failures SET created_at = now() - interval '16 minutes'`);
    expect((await c.post('user/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).body.code).toBe(10000);
    const audit = await s.db.query<{ action: string }>(`SELECT action FROM audit_logs WHERE action LIKE 'login%' ORDER BY id`);
    expect(audit.rows.map((r) => r.action)).toEqual([...Array(5).fill('login_failed'), 'login_throttled', 'login']);
  });

  it('per-address limit: 30 failures from one address across accounts', async () => {
    await s.db.query(`INSERT INTO login_failures (email, ip) SELECT 'u' || g || '@example.com', '127.0.0.1' FROM generate_series(1, 30) g`);
    const r = await s.anon().post('user/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(r.body.code).toBe(42901);
  });
});
