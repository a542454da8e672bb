// @db both — session caps and revocation are transactions racing on one account
/**
 * Sessions (issue 12 item 8): an idle timeout, at most N live sessions per account (signing in
 * beyond it revokes the oldest), and "my sessions" with revoke. Runs on PGlite, and on
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { ADMIN_EMAIL, startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ config: { sessionsPerAccount: 3, sessionIdleMinutes: 2 } });
});
afterAll(async () => {
  await s?.close();
});

const sessionIdOf = async (c: ApiClient): Promise<number> => {
  const r = await c.ok('GET', 'user/sessions');
  return r.list.find((x: { current: boolean }) => x.current).id;
};

describe('settings', () => {
  it('defaults: 2 hours idle, 10 sessions per account', () => {
    const c = loadConfig({});
    expect(c.sessionIdleMinutes).toBe(120);
    expect(c.sessionsPerAccount).toBe(10);
    expect(loadConfig({ SESSION_IDLE_MINUTES: '30', SESSIONS_PER_ACCOUNT: '2' })).toMatchObject({ sessionIdleMinutes: 30, sessionsPerAccount: 2 });
    expect(() => loadConfig({ SESSIONS_PER_ACCOUNT: 'many' })).toThrow(/SESSIONS_PER_ACCOUNT/);
  });
});

describe('sessions per account', () => {
  it('a fourth sign-in (limit 3) revokes the oldest live session and says so in its audit row', async () => {
    await s.db.query('UPDATE sessions SET revoked_at = now() WHERE revoked_at IS NULL');
    const [c1, c2, c3] = [await s.login(), await s.login(), await s.login()];
    const first = await sessionIdOf(c1);
    const c4 = await s.login();
    expect((await c1.get('User/Get')).body.code).toBe(20001);
    for (const c of [c2, c3, c4]) expect((await c.get('User/Get')).body.code).toBe(10000);
    const audit = await s.db.query<{ after: { evicted_sessions?: number[] } | null }>(
      `SELECT after FROM audit_logs WHERE action = 'login' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows[0].after?.evicted_sessions).toEqual([first]);
    // another account's sessions are not touched
    const other = await s.loginWithKeys([]);
    for (const c of [c2, c3, c4, other]) expect((await c.get('User/Get')).body.code).toBe(10000);
  });

  it('revoked and idle sessions do not count against the limit', async () => {
    await s.db.query('UPDATE sessions SET revoked_at = now() WHERE revoked_at IS NULL');
    const a = await s.login();
    const b = await s.login();
    await s.db.query(`UPDATE sessions SET last_seen_at = now() - interval '3 minutes' WHERE id = $1`, [await sessionIdOf(a)]);
    await b.ok('POST', 'user/logout');
    const c = await s.login();
    const d = await s.login();
    const e = await s.login();
    // three live now (c, d, e); nothing live was revoked to make room
    const list = (await e.ok('GET', 'user/sessions')).list;
    expect(list.map((x: { id: number }) => x.id)).toEqual([await sessionIdOf(e), await sessionIdOf(d), await sessionIdOf(c)]);
  });
});

describe('idle timeout', () => {
  it('a session unused for longer than the idle timeout is refused', async () => {
    const c = await s.login();
    expect((await c.get('User/Get')).body.code).toBe(10000);
    await s.db.query(`UPDATE sessions SET last_seen_at = now() - interval '121 seconds' WHERE id = $1`, [await sessionIdOf(c)]);
    expect((await c.get('User/Get')).body.code).toBe(20001);
  });

  it('using a session keeps it alive (its last use is written, not on every request)', async () => {
    const c = await s.login();
    const id = await sessionIdOf(c);
    // used 100 s ago: still live (idle 2 minutes), and this use is recorded
    await s.db.query(`UPDATE sessions SET last_seen_at = now() - interval '100 seconds' WHERE id = $1`, [id]);
    expect((await c.get('User/Get')).body.code).toBe(10000);
    let age = Infinity;
    for (let i = 0; i < 100 && age > 10; i++) {
      const r = await s.db.query<{ age: number }>('SELECT extract(epoch FROM now() - last_seen_at)::float8 AS age FROM sessions WHERE id = $1', [id]);
      age = Number(r.rows[0].age);
      if (age > 10) await new Promise((res) => setTimeout(res, 50));
    }
    expect(age).toBeLessThan(10);
    // a use right after writes nothing (at most once per touch interval)
    await s.db.query(`UPDATE sessions SET last_seen_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const before = await s.db.query<{ t: string }>('SELECT last_seen_at::text AS t FROM sessions WHERE id = $1', [id]);
    expect((await c.get('User/Get')).body.code).toBe(10000);
    await new Promise((res) => setTimeout(res, 200));
    const after = await s.db.query<{ t: string }>('SELECT last_seen_at::text AS t FROM sessions WHERE id = $1', [id]);
    expect(after.rows[0].t).toBe(before.rows[0].t);
  });
});

describe('my sessions', () => {
  it('lists the live sessions of the caller only, newest first, marking the current one', async () => {
    await s.db.query('UPDATE sessions SET revoked_at = now() WHERE revoked_at IS NULL');
    const a = await s.login();
    const b = await s.login();
    const other = await s.loginWithKeys([]);
    const r = await b.get('user/sessions');
    expect(r.body.code).toBe(10000);
    expect(r.body.data).toMatchObject({ idle_minutes: 2, max_sessions: 3 });
    const list = r.body.data.list;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ id: await sessionIdOf(b), current: true, ip: '127.0.0.1' });
    expect(list[1]).toMatchObject({ id: await sessionIdOf(a), current: false });
    for (const x of list) {
      expect(Object.keys(x).sort()).toEqual(['created_at', 'current', 'expires_at', 'id', 'ip', 'last_seen_at', 'user_agent']);
      expect(Number.isNaN(Date.parse(x.last_seen_at))).toBe(false);
    }
    expect((await other.ok('GET', 'user/sessions')).list).toHaveLength(1);
    expect((await s.anon().get('user/sessions')).body.code).toBe(20001);
  });

  it('revokes one session of mine; not one of another account (40004); revoking my own signs me out', async () => {
    await s.db.query('UPDATE sessions SET revoked_at = now() WHERE revoked_at IS NULL');
    const a = await s.login();
    const b = await s.login();
    const other = await s.loginWithKeys([]);
    const otherId = await sessionIdOf(other);
    const r = await b.post('user/session-revoke', { id: await sessionIdOf(a) });
    expect(r.body.code).toBe(10000);
    expect((await a.get('User/Get')).body.code).toBe(20001);
    const notMine = await b.post('user/session-revoke', { id: otherId });
    expect(notMine.body.code).toBe(40004);
    expect((await other.get('User/Get')).body.code).toBe(10000);
    // already revoked: 40004 as well
    expect((await b.post('user/session-revoke', { id: (await s.db.query<{ id: number }>('SELECT min(id) AS id FROM sessions')).rows[0].id })).body.code).toBe(40004);
    expect((await b.post('user/session-revoke', { id: 'x' })).body.code).toBe(40001);
    const self = await b.post('user/session-revoke', { id: await sessionIdOf(b) });
    expect(self.body.code).toBe(10000);
    expect(self.headers.getSetCookie().join('\n')).toMatch(/sid=;/);
    expect((await b.get('User/Get')).body.code).toBe(20001);
    const audit = await s.db.query<{ action: string; actor_email: string }>(`SELECT action, actor_email FROM audit_logs WHERE action = 'revoke_session' ORDER BY id`);
    expect(audit.rows).toEqual([
      { action: 'revoke_session', actor_email: ADMIN_EMAIL },
      { action: 'revoke_session', actor_email: ADMIN_EMAIL },
    ]);
  });

  it('revoke-others keeps only the current session', async () => {
    await s.db.query('UPDATE sessions SET revoked_at = now() WHERE revoked_at IS NULL');
    const a = await s.login();
    const b = await s.login();
    const c = await s.login();
    const r = await c.post('user/session-revoke-others');
    expect(r.body).toMatchObject({ code: 10000, data: { revoked: 2 } });
    expect((await a.get('User/Get')).body.code).toBe(20001);
    expect((await b.get('User/Get')).body.code).toBe(20001);
    expect((await c.get('User/Get')).body.code).toBe(10000);
    expect((await c.ok('GET', 'user/sessions')).list).toHaveLength(1);
  });
});
