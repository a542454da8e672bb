// @db both — PostgreSQL LISTEN/NOTIFY between two instances (on PGlite, one process: the case is skipped)
/**
 * Sign-out and password changes take effect on every instance at once (issue 25): two API
 * instances on one PostgreSQL database, each with its own kept session look-ups (SESSION_CACHE_MS);
 * a logout on one, a password change on one — the other refuses the session as soon as the
 * database's notification reaches it (migration 0026, server/app.ts), not after its cache
 * expires. The logout test polls B every ~50 ms from the logout's reply and asserts the first
 * refusal within 1 s, that B had heard the notification by then, and that B's kept look-up could
 * not have expired yet (so the refusal is the notification's doing, not the cache's TTL).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_CACHE_MS } from '../../server/auth/sessions.js';
import { buildApp } from '../../server/app.js';
import { openPg } from '../../server/db/pg.js';
import type { SqlDb } from '../../server/db/sql-db.js';
import { trackWrites } from '../../server/db/tracked.js';
import { ApiClient, startServer, type TestServer } from './harness.js';

const pgUrl = process.env.TEST_DATABASE_URL;

let a: TestServer;
let b: { app: FastifyInstance; db: SqlDb; url: string } | null = null;
/** notifications instance B received, in order */
const received: number[] = [];

const until = async <T,>(f: () => Promise<T> | T, ok: (v: T) => boolean, ms = 30_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error('timed out waiting for a state');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** the same client's cookies and token, sent to instance B */
const onB = (c: ApiClient): ApiClient => {
  const other = new ApiClient(b!.url);
  for (const [k, v] of c.cookies) other.cookies.set(k, v);
  return other;
};

beforeAll(async () => {
  a = await startServer({ config: { workers: 0 } });
  if (!pgUrl) return;
  // instance B: the same database, its own pool, tracker and LISTEN connection
  const database = (await a.db.query<{ d: string }>('SELECT current_database() AS d')).rows[0].d;
  const u = new URL(pgUrl);
  u.pathname = `/${database}`;
  const raw = await openPg(u.toString(), { schema: 'app' });
  const listen = raw.listen!.bind(raw);
  const db = trackWrites({ ...raw, listen: (channel: string, onNotify: () => void) => listen(channel, () => (onNotify(), received.push(Date.now()))) });
  const app = await buildApp({ config: { ...a.config, workers: 0 }, db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  b = { app, db, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` };
  // its LISTEN connection is up (it reports once on connecting)
  await until(() => received.length, (n) => n > 0);
});

afterAll(async () => {
  await b?.app.close();
  await b?.db.close();
  await a?.close();
});

describe('two instances on one PostgreSQL', () => {
  it.skipIf(!pgUrl)('a logout on A is refused on B within 1 s, by the notification (inside B’s session cache time)', async () => {
    const c = await a.login();
    const cb = onB(c);
    // B looks the session up and keeps it for SESSION_CACHE_MS from then (no later than this)
    const keptFrom = Date.now();
    expect((await cb.get('User/Get')).body.code).toBe(10000);
    expect((await cb.get('User/Get')).body.code).toBe(10000);
    const heard = received.length;
    expect((await c.post('user/logout')).body.code).toBe(10000);
    const loggedOut = Date.now();
    // poll B every ~50 ms from the logout's reply until it refuses (a state; 30 s only bounds a hang)
    let served = 0;
    let refusedAt = 0;
    let heardBefore = false;
    while (!refusedAt) {
      const sent = Date.now();
      const heardAtSend = received.length > heard;
      const r = await cb.get('User/Get');
      if (r.body.code === 20001) {
        refusedAt = Date.now();
        heardBefore = received.length > heard;
        break;
      }
      expect(r.body.code).toBe(10000);
      // a request sent after B heard is never served from the dropped look-up
      expect(heardAtSend, 'B served the session after it heard of the logout').toBe(false);
      served++;
      if (Date.now() - loggedOut > 30_000) throw new Error('B never refused the session');
      await new Promise((res) => setTimeout(res, Math.max(0, 50 - (Date.now() - sent))));
    }
    const ms = refusedAt - loggedOut;
    console.info(`logout on A refused on B after ${ms} ms (${served} polls served from B's kept look-up first; B's session cache: ${SESSION_CACHE_MS} ms)`);
    // the notification path: B had heard of it, and its kept look-up could not have expired yet
    expect(heardBefore).toBe(true);
    expect(refusedAt - keptFrom).toBeLessThan(SESSION_CACHE_MS);
    expect(ms).toBeLessThanOrEqual(1000);
  });

  it.skipIf(!pgUrl)('a password change on A ends the account’s other sessions on B at once', async () => {
    const owner = await a.loginWithKeys([], { password: 'old-password-for-instances' });
    const email = (await owner.ok<{ email: string }>('GET', 'User/Get')).email;
    const second = await a.login(email, 'old-password-for-instances');
    const secondOnB = onB(second);
    expect((await secondOnB.get('User/Get')).body.code).toBe(10000);
    const heard = received.length;
    const changed = await owner.post('user/update-pwd', { old_password: 'old-password-for-instances', new_password: 'amber-kettle-river-7-instances' });
    expect(changed.body.code, changed.body.msg).toBe(10000);
    await until(() => received.length, (n) => n > heard);
    expect((await secondOnB.get('User/Get')).body.code).toBe(20001);
    // the session that changed it goes on, on both
    expect((await owner.get('User/Get')).body.code).toBe(10000);
    expect((await onB(owner).get('User/Get')).body.code).toBe(10000);
  });

  it('the notifying triggers exist on both engines', async () => {
    const triggers = await a.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_trigger WHERE tgname LIKE 'session_grants_%'`);
    expect(triggers.rows[0].n).toBe(8);
  });
});
