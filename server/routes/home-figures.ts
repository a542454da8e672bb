/**
 * The figures of the module homes (home-stats.ts): each computed only when `can` grants the key
 * of the page it belongs to; per-day figures over the window's calendar days in its time zone.
 */
import type { HomeFigures } from '../../src/contract/replies/home-stats.js';
import type { ModuleName } from '../../src/contract/permission-manifest.js';
import { Keys } from '../auth/guards.js';
import type { Queryable } from '../db/db.js';
import { taggedValues } from '../resources/enums.js';

const HOME_DAYS = 14;

/** The page each figure belongs to: a figure is computed only for an account holding one of its keys. */
const FIGURE_KEYS = {
  // intelligent_text — each channel's series needs its own sessions page
  sessions_chat: 'intelligent_text.text.session.chat',
  sessions_mail: 'intelligent_text.text.session.mail',
  sessions_voice: 'intelligent_text.text.session.voice',
  ai_resolved: 'intelligent_text.text.session.chat',
  feedback_by_status: 'intelligent_text.text.session.feedback',
  test_tasks_by_status: 'intelligent_text.text.script_manage.task_list',
  rating_tasks_by_status: 'intelligent_text.text.script_manage.rating_task_list',
  ai_cost_per_day: 'intelligent_text.text.script_manage.trace',
  // intelligent_voice
  calls_per_day: 'intelligent_voice.admin.call_center.log',
  connect_rate: 'intelligent_voice.admin.call_center.log',
  call_tasks_by_status: 'intelligent_voice.admin.call_center.call_task',
  // panda_descendant
  train_tasks_by_status: 'panda_descendant.lab.train.task',
  datasets_by_size: 'panda_descendant.lab.train.dataset',
  // admin_center
  accounts: Keys.account,
  roles: Keys.role,
  audit_per_day: Keys.auditLogs,
} as const;

/** results of placed calls and of connected ones, as tagged in schemas/enums/call_result.json (a dry run is no call) */
const CALL_RESULTS = taggedValues('call_result', 'placed').map(Number);
const CONNECTED_RESULTS = taggedValues('call_result', 'connected').map(Number);
/** chat message types of AI replies and of human / ticket replies, as tagged in schemas/enums/message_type.json */
const AI_REPLY_TYPES = taggedValues('message_type', 'ai_reply').map(Number);
const HUMAN_REPLY_TYPES = taggedValues('message_type', 'human_reply').map(Number);
/** lab dataset size classes by sample count: [key, lowest, highest (inclusive) or null] */
const SIZE_CLASSES: Array<[string, number, number | null]> = [
  ['0', 0, 0],
  ['1-99', 1, 99],
  ['100-999', 100, 999],
  ['1000-9999', 1000, 9999],
  ['10000+', 10000, null],
];

export interface Window {
  tz: string;
  days: string[];
  /** first day (inclusive) and the day after the last (exclusive), YYYY-MM-DD in tz */
  from: string;
  to: string;
}

/** 'YYYY-MM-DD' of an instant in a time zone. */
function localDate(at: Date, tz: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

function addDays(ymd: string, n: number): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export function homeWindow(now: Date, tz: string, days = HOME_DAYS): Window {
  const today = localDate(now, tz);
  const list = Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
  return { tz, days: list, from: list[0], to: addDays(today, 1) };
}

/**
 * `col` within the window, as SQL with $1 = tz, $2 = from, $3 = to: midnight of a local date is
 * `date::timestamp AT TIME ZONE tz` (a timestamptz), so the range is sargable on `col`.
 */
const inWindow = (col: string) => `${col} >= ($2::date::timestamp AT TIME ZONE $1::text) AND ${col} < ($3::date::timestamp AT TIME ZONE $1::text)`;
const dayOf = (col: string) => `to_char((${col} AT TIME ZONE $1::text)::date, 'YYYY-MM-DD')`;

/** Per-day counts of several series from one query returning (series, day, n); zeros filled in. */
async function perDaySeries(db: Queryable, w: Window, sql: string, keys: string[], extra: unknown[] = []) {
  const r = await db.query<{ series: string; day: string; n: number }>(sql, [w.tz, w.from, w.to, ...extra]);
  const index = new Map(w.days.map((d, i) => [d, i]));
  const out = new Map(keys.map((k) => [k, w.days.map(() => 0)]));
  for (const row of r.rows) {
    const i = index.get(row.day);
    const s = out.get(String(row.series));
    if (i !== undefined && s) s[i] += Number(row.n);
  }
  return { series: keys.map((key) => ({ key, counts: out.get(key)! })) };
}

async function countBy(db: Queryable, table: string, col: string) {
  const r = await db.query<{ key: string; count: number }>(
    `SELECT ${col}::text AS key, count(*)::int AS count FROM ${table} GROUP BY ${col} ORDER BY count(*) DESC, ${col}::text`,
  );
  return { total: r.rows.reduce((n, x) => n + x.count, 0), items: r.rows };
}

const ratio = (part: number, total: number) => (total > 0 ? Math.round((part / total) * 10000) / 10000 : null);

type Figures = HomeFigures;
export type Can = (key: string) => boolean;

async function textFigures(db: Queryable, w: Window, can: Can): Promise<Figures> {
  const f: Figures = {};
  const channels = (
    [
      ['chat', 'chat_session', FIGURE_KEYS.sessions_chat],
      ['mail', 'mail_session', FIGURE_KEYS.sessions_mail],
      ['voice', 'voice_session', FIGURE_KEYS.sessions_voice],
    ] as const
  ).filter(([, , key]) => can(key));
  if (channels.length) {
    const sql = channels
      .map(([ch, table]) => `SELECT '${ch}' AS series, ${dayOf('started_at')} AS day, count(*)::int AS n FROM ${table} WHERE ${inWindow('started_at')} GROUP BY 2`)
      .join(' UNION ALL ');
    f.sessions_per_day = await perDaySeries(db, w, sql, channels.map(([ch]) => ch));
  }
  if (can(FIGURE_KEYS.ai_resolved)) {
    // a chat session of the window is AI-resolved when the AI replied and no person did
    const r = await db.query<{ total: number; part: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE x.ai AND NOT x.human)::int AS part FROM (
         SELECT EXISTS (SELECT 1 FROM chat_message m WHERE m.session_id = s.id AND m.msg_type = ANY($4::int[])) AS ai,
                EXISTS (SELECT 1 FROM chat_message m WHERE m.session_id = s.id AND m.msg_type = ANY($5::int[])) AS human
         FROM chat_session s WHERE ${inWindow('s.started_at')}) x`,
      [w.tz, w.from, w.to, AI_REPLY_TYPES, HUMAN_REPLY_TYPES],
    );
    const { total, part } = r.rows[0];
    f.ai_resolved = { total, part, share: ratio(part, total) };
  }
  if (can(FIGURE_KEYS.feedback_by_status)) f.feedback_by_status = await countBy(db, 'feedback', 'status');
  if (can(FIGURE_KEYS.test_tasks_by_status)) f.test_tasks_by_status = await countBy(db, 'text_task', 'status');
  if (can(FIGURE_KEYS.rating_tasks_by_status)) f.rating_tasks_by_status = await countBy(db, 'text_rating_task', 'status');
  if (can(FIGURE_KEYS.ai_cost_per_day)) {
    const sql = `SELECT kind AS series, ${dayOf('created_at')} AS day, sum(cost)::float8 AS n FROM model_call WHERE ${inWindow('created_at')} GROUP BY 1, 2`;
    const cost = await perDaySeries(db, w, sql, ['chat', 'embed', 'test']);
    f.ai_cost_per_day = { series: cost.series.map((x) => ({ key: x.key, counts: x.counts.map((n) => Math.round(n * 1e6) / 1e6) })) };
  }
  return f;
}

async function voiceFigures(db: Queryable, w: Window, can: Can): Promise<Figures> {
  const f: Figures = {};
  if (can(FIGURE_KEYS.calls_per_day)) {
    f.calls_per_day = await perDaySeries(
      db,
      w,
      `SELECT result::text AS series, ${dayOf('called_at')} AS day, count(*)::int AS n FROM call_log
       WHERE result = ANY($4::int[]) AND ${inWindow('called_at')} GROUP BY 1, 2`,
      CALL_RESULTS.map(String),
      [CALL_RESULTS],
    );
  }
  if (can(FIGURE_KEYS.connect_rate)) {
    // placed calls of the window; connected = a result tagged so (1, success)
    const r = await db.query<{ total: number; part: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE result = ANY($5::int[]))::int AS part FROM call_log
       WHERE result = ANY($4::int[]) AND ${inWindow('called_at')}`,
      [w.tz, w.from, w.to, CALL_RESULTS, CONNECTED_RESULTS],
    );
    const { total, part } = r.rows[0];
    f.connect_rate = { total, part, share: ratio(part, total) };
  }
  if (can(FIGURE_KEYS.call_tasks_by_status)) f.call_tasks_by_status = await countBy(db, 'call_task', 'status');
  return f;
}

async function labFigures(db: Queryable, _w: Window, can: Can): Promise<Figures> {
  const f: Figures = {};
  if (can(FIGURE_KEYS.train_tasks_by_status)) f.train_tasks_by_status = await countBy(db, 'lab_train_task', 'status');
  if (can(FIGURE_KEYS.datasets_by_size)) {
    const cases = SIZE_CLASSES.map(([, lo, hi], i) => `WHEN sample_count >= ${lo}${hi === null ? '' : ` AND sample_count <= ${hi}`} THEN ${i}`).join(' ');
    const r = await db.query<{ i: number; count: number }>(
      `SELECT CASE ${cases} ELSE 0 END AS i, count(*)::int AS count FROM lab_dataset GROUP BY 1`,
    );
    const byClass = new Map(r.rows.map((x) => [Number(x.i), x.count]));
    const items = SIZE_CLASSES.map(([key], i) => ({ key, count: byClass.get(i) ?? 0 }));
    f.datasets_by_size = { total: items.reduce((n, x) => n + x.count, 0), items };
  }
  return f;
}

async function adminFigures(db: Queryable, w: Window, can: Can): Promise<Figures> {
  const f: Figures = {};
  if (can(FIGURE_KEYS.accounts)) {
    const r = await db.query<{ total: number; enabled: number }>(
      'SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 1)::int AS enabled FROM accounts',
    );
    const { total, enabled } = r.rows[0];
    f.accounts = { total, enabled, disabled: total - enabled };
  }
  if (can(FIGURE_KEYS.roles)) {
    const r = await db.query<{ total: number; super_admin: number; unassigned: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE is_super_admin)::int AS super_admin,
              count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM account_roles ar WHERE ar.role_id = r.id))::int AS unassigned
       FROM roles r`,
    );
    f.roles = r.rows[0];
  }
  if (can(FIGURE_KEYS.audit_per_day)) {
    // every event, and the refused calls among them (action 'forbidden')
    f.audit_per_day = await perDaySeries(
      db,
      w,
      `SELECT 'all' AS series, ${dayOf('created_at')} AS day, count(*)::int AS n FROM audit_logs WHERE ${inWindow('created_at')} GROUP BY 2
       UNION ALL
       SELECT 'refused', ${dayOf('created_at')}, count(*)::int FROM audit_logs WHERE action = 'forbidden' AND ${inWindow('created_at')} GROUP BY 2`,
      ['all', 'refused'],
    );
  }
  return f;
}

export const BY_MODULE: Record<ModuleName, (db: Queryable, w: Window, can: Can) => Promise<Figures>> = {
  intelligent_text: textFigures,
  intelligent_voice: voiceFigures,
  panda_descendant: labFigures,
  admin_center: adminFigures,
};

