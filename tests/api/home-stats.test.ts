// @db both — day buckets in two time zones computed in SQL
/**
 * Module homes' live figures (`GET home/stats`): every figure equals a count made here with
 * direct SQL (per-day buckets counted in JavaScript from the raw timestamps with Intl, so the
 * route's SQL day arithmetic is checked by a different method; the model cost per day summed from
 * the model_call rows), in two time zones; an account
 * gets only the figures of the pages it holds; anonymous callers are refused (20001).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlledClock } from '../../server/jobs/clock.js';
import { startServer, type ApiClient, type TestServer } from './harness.js';

// "now" for the route: 20:00 UTC = 04:00 the next day in Shanghai, so the two zones' 14 days differ by one
const NOW = '2026-03-10T20:00:00Z';
let s: TestServer;
let admin: ApiClient;

/** rows at these instants: inside, at the edges of and outside the windows of both zones */
const TIMES = [
  '2026-03-10T19:59:00Z', // today in both
  '2026-03-10T16:30:00Z', // UTC 03-10, Shanghai 03-11 00:30
  '2026-03-09T15:59:00Z', // UTC 03-09, Shanghai 03-09 23:59
  '2026-02-25T00:30:00Z', // UTC 02-25 (first day of the UTC window), Shanghai 02-25 08:30 (outside: its first day is 02-26)
  '2026-02-24T23:00:00Z', // UTC 02-24 outside, Shanghai 02-25 07:00 outside
  '2026-02-25T16:10:00Z', // Shanghai 02-26 00:10 (first day of its window), UTC 02-25
  '2026-03-11T05:00:00Z', // after "now": UTC 03-11 (outside), Shanghai 03-11 13:00 (today there, counted)
  '2026-01-01T00:00:00Z', // long ago
];

const localDay = (iso: string | Date, tz: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

/** per-day counts of `rows` (series key, instant) over `days`, counted in JavaScript */
function bucket(rows: Array<{ series: string; at: Date | string }>, days: string[], keys: string[], tz: string) {
  return keys.map((key) => ({
    key,
    counts: days.map((d) => rows.filter((r) => r.series === key && localDay(r.at, tz) === d).length),
  }));
}

async function q<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await s.db.query<T>(sql, params)).rows as T[];
}

/** `SELECT col, count(*)` straight from the table, in the route's shape (order free) */
async function byStatus(table: string, col = 'status') {
  const rows = await q<{ key: string; count: number }>(`SELECT ${col}::text AS key, count(*)::int AS count FROM ${table} GROUP BY 1`);
  return { total: rows.reduce((n, r) => n + r.count, 0), items: rows };
}
const sorted = (f: { total: number; items: Array<{ key: string; count: number }> }) => ({
  total: f.total,
  items: [...f.items].sort((a, b) => a.key.localeCompare(b.key)),
});

/**
 * A by-status figure of the route against the table. Background jobs may move a status while the
 * test reads (the demo's training task is run by its job), so the table is read before and after
 * the route and the figure is compared when the two reads agree: the state it waits for is "no
 * change during the call", never a length of time.
 */
async function expectStatusFigure(module: string, tz: string | undefined, key: string, table: string) {
  for (let tries = 0; ; tries++) {
    const before = sorted(await byStatus(table));
    const r = await stats(admin, module, tz);
    const after = sorted(await byStatus(table));
    if (JSON.stringify(before) === JSON.stringify(after)) {
      expect(sorted(r.figures[key])).toEqual(before);
      return;
    }
    if (tries >= 100) throw new Error(`${table} kept changing during the call`);
  }
}

beforeAll(async () => {
  s = await startServer({ clock: new ControlledClock(NOW, { ticking: false }) });
  admin = await s.login();
  const db = s.db;
  const shop = (await db.query<{ id: number }>("INSERT INTO shop (name, type) VALUES ('Home stats shop', 1) RETURNING id")).rows[0].id;
  // sessions: chat (with messages deciding AI-resolved), mail, voice
  let i = 0;
  for (const at of TIMES) {
    i += 1;
    const chat = (await db.query<{ id: number }>('INSERT INTO chat_session (shop_id, started_at) VALUES ($1, $2) RETURNING id', [shop, at])).rows[0].id;
    // pattern: AI only / AI + human / customer only / AI + ticket reply
    const types = [[1, 2], [1, 2, 4], [1], [2, 7]][i % 4];
    for (const t of types) await db.query('INSERT INTO chat_message (session_id, msg_type, sent_at) VALUES ($1, $2, $3)', [chat, t, at]);
    if (i % 2) await db.query('INSERT INTO mail_session (shop_id, started_at) VALUES ($1, $2)', [shop, at]);
    if (i % 3) await db.query('INSERT INTO voice_session (shop_id, started_at) VALUES ($1, $2)', [shop, at]);
  }
  for (const [n, st] of [[3, 'pending'], [2, 'processed'], [1, 'no_need']] as const) {
    for (let k = 0; k < n; k++) await db.query('INSERT INTO feedback (status) VALUES ($1)', [st]);
  }
  // script and rating tasks
  const ds = (await db.query<{ id: number }>("INSERT INTO text_dataset (name) VALUES ('ds') RETURNING id")).rows[0].id;
  const rds = (await db.query<{ id: number }>("INSERT INTO text_rating_dataset (name) VALUES ('rds') RETURNING id")).rows[0].id;
  for (const st of ['pending', 'finished', 'finished', 'stopped']) await db.query('INSERT INTO text_task (name, dataset_id, status) VALUES ($1, $2, $3)', [`t-${st}`, ds, st]);
  for (const st of ['finished', 'stopped']) await db.query('INSERT INTO text_rating_task (name, dataset_id, status) VALUES ($1, $2, $3)', [`r-${st}`, rds, st]);
  // voice: call tasks and call logs with every result code (and a call still dialling: no result)
  const scene = (await db.query<{ id: number }>("INSERT INTO voice_scene (name, voice_provider) VALUES ('scene', 'mock') RETURNING id")).rows[0].id;
  const task = (await db.query<{ id: number }>("INSERT INTO call_task (name, scene_id, status) VALUES ('ct', $1, 'finished') RETURNING id", [scene])).rows[0].id;
  for (const st of ['pending', 'stopped', 'stopped']) await db.query('INSERT INTO call_task (name, scene_id, status) VALUES ($1, $2, $3)', [`ct-${st}`, scene, st]);
  i = 0;
  for (const at of TIMES) {
    for (const result of [1, 1, 2, 3, 4].slice(i % 5)) {
      await db.query('INSERT INTO call_log (task_id, callee_number, result, called_at) VALUES ($1, $2, $3, $4)', [task, `+1555000${i}`, result, at]);
    }
    i += 1;
  }
  await db.query("INSERT INTO call_log (task_id, callee_number, result, status, called_at) VALUES ($1, '+15550999', NULL, 'dialling', $2)", [task, TIMES[0]]);
  // lab: datasets of every size class, training tasks
  for (const n of [0, 5, 99, 100, 2500, 12000]) await db.query('INSERT INTO lab_dataset (name, sample_count) VALUES ($1, $2)', [`lab-${n}`, n]);
  const lds = (await db.query<{ id: number }>('SELECT min(id)::int AS id FROM lab_dataset')).rows[0].id;
  for (const st of ['pending', 'running', 'finished', 'finished']) {
    await db.query("INSERT INTO lab_train_task (name, dataset_id, base_model, status) VALUES ($1, $2, 'base', $3)", [`lt-${st}`, lds, st]);
  }
  // model calls with their cost at the instants (chat, embeddings, connection tests)
  i = 0;
  for (const at of TIMES) {
    const kind = ['chat', 'embed', 'test'][i % 3];
    await db.query("INSERT INTO model_call (kind, outcome, cost, created_at) VALUES ($1, 'ok', $2, $3)", [kind, 0.000052 * (i + 1), at]);
    await db.query("INSERT INTO model_call (kind, outcome, cost, created_at) VALUES ('chat', 'ok', 0.0125, $1)", [at]);
    i += 1;
  }
  // admin: a disabled account, an unassigned role, audit events (some refused) at the instants
  await db.query("INSERT INTO accounts (email, name, password_hash, status) VALUES ('off@example.com', 'off', 'x', 0)");
  await db.query("INSERT INTO roles (name) VALUES ('nobody holds this')");
  i = 0;
  for (const at of TIMES) {
    await db.query("INSERT INTO audit_logs (action, resource, created_at) VALUES ($1, 'home-test', $2)", [i % 2 ? 'forbidden' : 'update', at]);
    i += 1;
  }
});
afterAll(async () => {
  await s?.close();
});

const stats = (c: ApiClient, module: string, tz?: string) => c.ok('GET', 'home/stats', { module, ...(tz ? { tz } : {}) });

describe('GET home/stats', () => {
  it('refuses anonymous callers (20001) and unknown modules or zones (40001)', async () => {
    expect((await s.anon().get('home/stats', { module: 'intelligent_text' })).body.code).toBe(20001);
    const bad = await admin.get('home/stats', { module: 'nope' });
    expect(bad.body.code).toBe(40001);
    const badTz = await admin.get('home/stats', { module: 'admin_center', tz: 'Mars/Olympus' });
    expect(badTz.body.code).toBe(40001);
    expect(badTz.body.data.errors[0].field).toBe('tz');
  });

  for (const tz of ['UTC', 'Asia/Shanghai']) {
    describe(`days bucketed in ${tz}`, () => {
      it('names the 14 days ending today in that zone', async () => {
        const r = await stats(admin, 'admin_center', tz);
        expect(r.tz).toBe(tz);
        expect(r.days).toHaveLength(14);
        expect(r.days[13]).toBe(localDay(NOW, tz));
        expect(r.days[0]).toBe(tz === 'UTC' ? '2026-02-25' : '2026-02-26');
      });

      it('text: sessions per day by channel, AI-resolved share, feedback and tasks by status', async () => {
        const r = await stats(admin, 'intelligent_text', tz);
        const rows = [
          ...(await q<{ at: Date }>('SELECT started_at AS at FROM chat_session')).map((x) => ({ series: 'chat', at: x.at })),
          ...(await q<{ at: Date }>('SELECT started_at AS at FROM mail_session')).map((x) => ({ series: 'mail', at: x.at })),
          ...(await q<{ at: Date }>('SELECT started_at AS at FROM voice_session')).map((x) => ({ series: 'voice', at: x.at })),
        ];
        expect(r.figures.sessions_per_day.series).toEqual(bucket(rows, r.days, ['chat', 'mail', 'voice'], tz));
        expect(r.figures.sessions_per_day.series[0].counts.reduce((a: number, b: number) => a + b, 0)).toBeGreaterThan(0);

        // AI-resolved, counted here session by session
        const sessions = await q<{ id: number; at: Date; types: number[] }>(
          'SELECT s.id, s.started_at AS at, array_agg(m.msg_type::int) AS types FROM chat_session s JOIN chat_message m ON m.session_id = s.id GROUP BY s.id',
        );
        const inWindow = sessions.filter((x) => r.days.includes(localDay(x.at, tz)));
        const resolved = inWindow.filter((x) => x.types.some((t) => t === 2 || t === 10) && !x.types.some((t) => t === 4 || t === 7));
        expect(r.figures.ai_resolved.total).toBe(inWindow.length);
        expect(r.figures.ai_resolved.part).toBe(resolved.length);
        expect(r.figures.ai_resolved.share).toBeCloseTo(resolved.length / inWindow.length, 4);

        // model cost per day by kind of call, summed here from the rows
        const calls = await q<{ kind: string; at: Date; cost: string }>('SELECT kind, created_at AS at, cost::text AS cost FROM model_call');
        const cost = ['chat', 'embed', 'test'].map((key) => ({
          key,
          counts: r.days.map((d: string) => Math.round(calls.filter((c) => c.kind === key && localDay(c.at, tz) === d).reduce((n, c) => n + Number(c.cost), 0) * 1e6) / 1e6),
        }));
        expect(r.figures.ai_cost_per_day.series).toEqual(cost);
        expect(cost[0].counts.reduce((a: number, b: number) => a + b, 0)).toBeGreaterThan(0.0125);

        await expectStatusFigure('intelligent_text', tz, 'feedback_by_status', 'feedback');
        await expectStatusFigure('intelligent_text', tz, 'test_tasks_by_status', 'text_task');
        await expectStatusFigure('intelligent_text', tz, 'rating_tasks_by_status', 'text_rating_task');
      });

      it('voice: calls per day by result code 1–4, connect rate, call tasks by status', async () => {
        const r = await stats(admin, 'intelligent_voice', tz);
        const calls = await q<{ series: string; at: Date }>('SELECT result::text AS series, called_at AS at FROM call_log WHERE result IS NOT NULL');
        expect(r.figures.calls_per_day.series).toEqual(bucket(calls, r.days, ['1', '2', '3', '4'], tz));
        const inWindow = calls.filter((c) => r.days.includes(localDay(c.at, tz)));
        expect(r.figures.connect_rate.total).toBe(inWindow.length);
        expect(r.figures.connect_rate.part).toBe(inWindow.filter((c) => c.series === '1').length);
        expect(r.figures.connect_rate.share).toBeCloseTo(r.figures.connect_rate.part / inWindow.length, 4);
        await expectStatusFigure('intelligent_voice', tz, 'call_tasks_by_status', 'call_task');
      });

      it('lab: training tasks by status, datasets by size class', async () => {
        const r = await stats(admin, 'panda_descendant', tz);
        await expectStatusFigure('panda_descendant', tz, 'train_tasks_by_status', 'lab_train_task');
        const sizes = (await q<{ n: number }>('SELECT sample_count AS n FROM lab_dataset')).map((x) => x.n);
        const inClass = (lo: number, hi: number) => sizes.filter((n) => n >= lo && n <= hi).length;
        expect(r.figures.datasets_by_size).toEqual({
          total: sizes.length,
          items: [
            { key: '0', count: inClass(0, 0) },
            { key: '1-99', count: inClass(1, 99) },
            { key: '100-999', count: inClass(100, 999) },
            { key: '1000-9999', count: inClass(1000, 9999) },
            { key: '10000+', count: inClass(10000, Infinity) },
          ],
        });
        expect(r.figures.datasets_by_size.items.every((x: { count: number }) => x.count > 0)).toBe(true);
      });

      it('admin: accounts, roles, audit events per day (all and refused)', async () => {
        const r = await stats(admin, 'admin_center', tz);
        const acc = (await q<{ total: number; enabled: number }>('SELECT count(*)::int AS total, sum(CASE WHEN status = 1 THEN 1 ELSE 0 END)::int AS enabled FROM accounts'))[0];
        expect(r.figures.accounts).toEqual({ total: acc.total, enabled: acc.enabled, disabled: acc.total - acc.enabled });
        expect(r.figures.accounts.disabled).toBeGreaterThan(0);
        const roles = (await q<{ total: number; super_admin: number; unassigned: number }>(
          `SELECT count(*)::int AS total, sum(CASE WHEN is_super_admin THEN 1 ELSE 0 END)::int AS super_admin,
                  sum(CASE WHEN id NOT IN (SELECT role_id FROM account_roles) THEN 1 ELSE 0 END)::int AS unassigned FROM roles`,
        ))[0];
        expect(r.figures.roles).toEqual(roles);
        const events = await q<{ action: string; at: Date }>('SELECT action, created_at AS at FROM audit_logs');
        const rows = [...events.map((e) => ({ series: 'all', at: e.at })), ...events.filter((e) => e.action === 'forbidden').map((e) => ({ series: 'refused', at: e.at }))];
        expect(r.figures.audit_per_day.series).toEqual(bucket(rows, r.days, ['all', 'refused'], tz));
      });
    });
  }

  it('the default zone is UTC', async () => {
    const r = await stats(admin, 'intelligent_voice');
    expect(r.tz).toBe('UTC');
    expect(r.days[13]).toBe('2026-03-10');
  });

  describe('an account gets only the figures of the pages it holds', () => {
    it('only the voice call-log page: call figures, nothing of other modules', async () => {
      const op = await s.loginWithKeys(['intelligent_voice', 'intelligent_voice.admin.call_center.log']);
      expect(Object.keys((await stats(op, 'intelligent_voice')).figures).sort()).toEqual(['calls_per_day', 'connect_rate']);
      for (const m of ['intelligent_text', 'panda_descendant', 'admin_center']) expect((await stats(op, m)).figures).toEqual({});
    });

    it('only the mail sessions and feedback pages: the mail series alone, feedback, no AI share or tasks', async () => {
      const op = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text.session.mail', 'intelligent_text.text.session.feedback']);
      const r = await stats(op, 'intelligent_text');
      expect(Object.keys(r.figures).sort()).toEqual(['feedback_by_status', 'sessions_per_day']);
      expect(r.figures.sessions_per_day.series.map((x: { key: string }) => x.key)).toEqual(['mail']);
      const full = await stats(admin, 'intelligent_text');
      expect(r.figures.sessions_per_day.series[0]).toEqual(full.figures.sessions_per_day.series[1]);
      expect((await stats(op, 'intelligent_voice')).figures).toEqual({});
    });

    it('only the lab datasets page; only the audit-log page', async () => {
      const lab = await s.loginWithKeys(['panda_descendant', 'panda_descendant.lab.train.dataset']);
      expect(Object.keys((await stats(lab, 'panda_descendant')).figures)).toEqual(['datasets_by_size']);
      const auditor = await s.loginWithKeys(['admin_center', 'admin_center.admin.permission.audit_logs']);
      expect(Object.keys((await stats(auditor, 'admin_center')).figures)).toEqual(['audit_per_day']);
      expect((await stats(auditor, 'panda_descendant')).figures).toEqual({});
    });

    it('a module key alone (no page) gets no figures; the super admin gets all of a module', async () => {
      const bare = await s.loginWithKeys(['intelligent_text']);
      expect((await stats(bare, 'intelligent_text')).figures).toEqual({});
      expect(Object.keys((await stats(admin, 'intelligent_text')).figures).sort()).toEqual([
        'ai_cost_per_day', 'ai_resolved', 'feedback_by_status', 'rating_tasks_by_status', 'sessions_per_day', 'test_tasks_by_status',
      ]);
    });
  });
});
