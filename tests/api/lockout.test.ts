// @db both — the throttle's counts and holds are database statements under concurrency
/**
 * No lock-out by others (issue 25, server/auth/throttle.ts): failures slow down the attacker's
 * (account, address) pairs; the account's own ceiling never refuses the right password from a
 * new address — it holds that address once for THROTTLE.ceilingDelaySeconds (30 s) — and the
 * owner is told (an audit row and the sign-in reply's `security_notice`). Time is moved in the
 * database (the hold's start), never waited for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE, beginAttempt } from '../../server/auth/throttle.js';
import { clientFrom } from './addresses.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from './harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ config: { trustProxy: true } }); // addresses from X-Forwarded-For (./addresses.ts)
});
afterAll(async () => s?.close());

const login = (ip: string, password: string, email = ADMIN_EMAIL) => clientFrom(s, ip).post('user/login', { email, password });
/** the hold of `ip` began `seconds` earlier (what waiting would do) */
const age = (ip: string, seconds: number) => s.db.query(`UPDATE login_throttle SET held_since = held_since - make_interval(secs => $2) WHERE ip = $1`, [ip, seconds]);
const audit = async (since: number) =>
  (await s.db.query<{ action: string; ip: string; after: Record<string, any> | null }>(`SELECT action, ip, after FROM audit_logs WHERE id > $1 AND action LIKE 'login%' ORDER BY id`, [since])).rows;
const maxAudit = async () => (await s.db.query<{ n: number }>('SELECT coalesce(max(id), 0)::int AS n FROM audit_logs')).rows[0].n;

describe('an attack on one account from many addresses', () => {
  it('200 wrong passwords from 30 addresses: the owner signs in from a new address with the right password within 30 s, and is told', async () => {
    await s.db.query('DELETE FROM login_throttle');
    const addresses = Array.from({ length: 30 }, (_, i) => `198.51.100.${i + 1}`);
    const codes: Record<number, number> = {};
    // ten at a time, round robin over the addresses
    for (let i = 0; i < 200; i += 10) {
      const replies = await Promise.all(Array.from({ length: 10 }, (_, k) => login(addresses[(i + k) % 30], `wrong-password-${i + k}`)));
      for (const r of replies) codes[r.body.code] = (codes[r.body.code] ?? 0) + 1;
    }
    // every attempt was answered as a wrong password or "wait": none signed in, none crashed
    expect(Object.keys(codes).sort()).toEqual(['40001', '42901']);
    const counted = (await s.db.query<{ n: number }>('SELECT sum(failures)::int AS n FROM login_throttle WHERE email = $1', [ADMIN_EMAIL])).rows[0].n;
    expect(counted).toBeGreaterThanOrEqual(THROTTLE.accountCeiling);

    const a0 = await maxAudit();
    // the owner, from an address it never used: held, never refused for the window
    const first = await login('203.0.113.77', ADMIN_PASSWORD);
    expect(first.body.code).toBe(42901);
    expect(first.body.data.retry_after).toBeGreaterThanOrEqual(1);
    expect(first.body.data.retry_after).toBeLessThanOrEqual(THROTTLE.ceilingDelaySeconds);
    // trying again before the hold is over changes nothing (the hold does not restart)
    const again = await login('203.0.113.77', ADMIN_PASSWORD);
    expect(again.body.code).toBe(42901);
    expect(again.body.data.retry_after).toBeLessThanOrEqual(THROTTLE.ceilingDelaySeconds);
    // the delay passes: the right password signs in
    await age('203.0.113.77', THROTTLE.ceilingDelaySeconds);
    const ok = await login('203.0.113.77', ADMIN_PASSWORD);
    expect(ok.body.code).toBe(10000);
    expect(ok.body.data.security_notice).toMatchObject({ failed_attempts: counted, addresses: 30 });

    const rows = await audit(a0);
    expect(rows.map((r) => [r.action, r.after?.reason ?? null])).toEqual([
      ['login_throttled', 'account'],
      ['login_throttled', 'account'],
      ['login', null],
    ]);
    expect(rows[2].after).toMatchObject({ account_ceiling: true, held_seconds: THROTTLE.ceilingDelaySeconds, security_notice: { failed_attempts: counted, addresses: 30 } });

    // told once: the next sign-in has no notice
    const next = await login('203.0.113.77', ADMIN_PASSWORD);
    expect(next.body.code).toBe(10000);
    expect(next.body.data.security_notice).toBeNull();
  });

  it('past the ceiling, an attacker’s new address is held once, then its guesses are checked at its pair’s pace — never anyone else’s', async () => {
    // the account is still past its ceiling (the failures of the attack above are counted for an hour)
    const held = await login('192.0.2.200', 'still-wrong-password');
    expect(held.body.code).toBe(42901);
    await age('192.0.2.200', THROTTLE.ceilingDelaySeconds);
    // after the hold the wrong password is checked and counted for this pair only
    for (let i = 0; i < THROTTLE.freeFailures; i++) expect((await login('192.0.2.200', `wrong-${i}-password`)).body.code).toBe(40001);
    const paced = await login('192.0.2.200', 'wrong-again-password');
    expect(paced.body.code).toBe(42901);
    expect(paced.body.data.retry_after).toBeLessThanOrEqual(THROTTLE.baseDelaySeconds);
    // an address the owner signed in from (the test above) is not held at all
    expect((await login('203.0.113.77', ADMIN_PASSWORD)).body.code).toBe(10000);
    // other accounts are untouched
    const other = await s.loginWithKeys([]);
    expect(other.token).toBeTruthy();
  });

  it('40 parallel first attempts from one new address past the ceiling start one hold and check no password', async () => {
    const attempts = await Promise.all(Array.from({ length: 40 }, () => beginAttempt(s.db, ADMIN_EMAIL, '192.0.2.201')));
    expect(attempts.every((a) => !a.allowed && a.reason === 'account')).toBe(true);
    const rows = await s.db.query<{ failures: number; held: boolean }>(`SELECT failures, held_since IS NOT NULL AS held FROM login_throttle WHERE ip = '192.0.2.201'`);
    expect(rows.rows).toEqual([{ failures: 0, held: true }]);
  });
});
