/**
 * Auto-learn schedules (auto-learn.ts): a rule runs every `interval_hours`, daily at `run_time`
 * in `time_zone`, or on a cron expression in `time_zone` (croner). `next_run_at` is stored; the
 * `autolearn.schedule` ticker claims a due rule with `UPDATE ... WHERE next_run_at = <due>` and
 * enqueues its `autolearn.mine` job in the same transaction, so each due time fires once across
 * instances. Due times are read from the engine clock. A rule whose runs were missed (the
 * console was down) runs once, then waits for its next due time after now.
 */
import { Cron } from 'croner';
import type { Ticker } from '../../jobs/types.js';
import { MINE_KIND } from './auto-learn.js';

type ScheduleType = 'interval' | 'daily' | 'cron';

export interface Schedule {
  schedule_type: ScheduleType;
  interval_hours: number;
  run_time: string;
  time_zone: string;
  cron: string;
}

/** The cron pattern of a daily or cron schedule (null for an interval). */
function patternOf(s: Schedule): string | null {
  if (s.schedule_type === 'daily') {
    const [h, m] = s.run_time.split(':').map(Number);
    return `${m} ${h} * * *`;
  }
  if (s.schedule_type === 'cron') return s.cron.trim();
  return null;
}

/** Why a schedule cannot run (field and message), or null when it is fine. */
export function scheduleProblem(s: Schedule): { field: string; message: string } | null {
  if (s.schedule_type === 'daily' && !/^([01]\d|2[0-3]):[0-5]\d$/.test(s.run_time)) {
    return { field: 'run_time', message: 'a time as HH:MM, e.g. 03:00 / 请填写 HH:MM 格式的时间' };
  }
  if (s.schedule_type === 'cron' && !s.cron.trim()) return { field: 'cron', message: 'a cron expression is needed / 请填写 cron 表达式' };
  if (s.schedule_type !== 'interval') {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: s.time_zone });
    } catch {
      return { field: 'time_zone', message: `unknown time zone ${s.time_zone} / 未知时区` };
    }
    let runs: Date[];
    try {
      runs = new Cron(patternOf(s)!, { timezone: s.time_zone }).nextRuns(2, new Date('2026-01-01T00:00:00Z'));
    } catch (e) {
      return { field: 'cron', message: `not a cron expression: ${(e as Error).message.slice(0, 200)} / cron 表达式无效` };
    }
    if (runs.length === 0) return { field: 'cron', message: 'this cron expression never runs / 该 cron 表达式不会触发' };
    if (runs.length === 2 && runs[1].getTime() - runs[0].getTime() < 5 * 60_000) {
      return { field: 'cron', message: 'runs at most every 5 minutes / 运行间隔至少 5 分钟' };
    }
  }
  return null;
}

/** The first due time strictly after `from` (null when a cron pattern never runs again). */
export function nextRunAfter(s: Schedule, from: Date): Date | null {
  const pattern = patternOf(s);
  if (!pattern) return new Date(from.getTime() + Math.max(1, s.interval_hours) * 3_600_000);
  return new Cron(pattern, { timezone: s.time_zone }).nextRun(from);
}

/** After the run due at `due`: the next due time after `now` (missed runs are not made up). */
function nextAfterRun(s: Schedule, due: Date, now: Date): Date | null {
  if (!patternOf(s)) {
    const step = Math.max(1, s.interval_hours) * 3_600_000;
    const k = Math.max(1, Math.floor((now.getTime() - due.getTime()) / step) + 1);
    return new Date(due.getTime() + k * step);
  }
  return nextRunAfter(s, now.getTime() >= due.getTime() ? now : due);
}

interface RuleRow extends Schedule {
  id: number;
  name: string;
  next_run_at: Date | null;
  updated_at: Date;
}

/**
 * `autolearn.schedule` (every 2 s, once per slot across instances): claims each due rule and
 * enqueues its mining job in the same transaction. A rule saved before schedules existed (no
 * `next_run_at`, e.g. demo data) is due one interval / pattern time after it was last saved.
 */
export const autoLearnTicker: Ticker = {
  name: 'autolearn.schedule',
  everySeconds: 2,
  async run({ db, now, enqueue }) {
    const at = now();
    const rules = await db.query<RuleRow>(
      `SELECT id, name, schedule_type, interval_hours, run_time, time_zone, cron, next_run_at, updated_at
         FROM config_auto_learn WHERE enabled AND (next_run_at IS NULL OR next_run_at <= $1) ORDER BY id LIMIT 100`,
      [at],
    );
    for (const r of rules.rows) {
      let due: Date | null;
      try {
        due = r.next_run_at ?? nextRunAfter(r, new Date(r.updated_at));
      } catch {
        continue; // a schedule saved around the validation (cannot happen through the API)
      }
      if (!due || due.getTime() > at.getTime()) continue;
      const next = nextAfterRun(r, due, at);
      await db.tx(async (q) => {
        const claimed = await q.query(
          `UPDATE config_auto_learn SET next_run_at = $2, last_run_at = $3
            WHERE id = $1 AND enabled AND next_run_at IS NOT DISTINCT FROM $4::timestamptz RETURNING id`,
          [r.id, next, due, r.next_run_at],
        );
        if (!claimed.rows.length) return; // another instance (or an edit) got there first
        const job = await enqueue(q, MINE_KIND, { ruleId: r.id, due: due!.toISOString() }, {
          ref: { type: 'config_auto_learn', id: r.id },
          title: `Auto-learn "${r.name}" (${due!.toISOString()}) / 自动学习`,
        });
        await q.query(`UPDATE config_auto_learn SET last_job_id = $2 WHERE id = $1`, [r.id, job.id]);
      });
    }
  },
};

