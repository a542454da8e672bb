/** Shared set-up of the call-campaign tests (campaign*.test.ts): a scene, an outbound number, a task. */
import type { ApiClient, TestServer } from '../harness.js';
import { until } from '../jobs/until.js';

let seq = 0;

export interface SceneOpts {
  time_zone: string;
  redial_times?: number;
  redial_interval_minutes?: number;
  silent_seconds?: number;
  silent_times?: number;
}

export async function makeScene(admin: ApiClient, o: SceneOpts): Promise<number> {
  seq += 1;
  const r = await admin.ok('POST', 'call-center/scene/create', {
    name: `Campaign scene ${seq}`,
    prologue: 'Hello, this is the store calling about your order.',
    prompt: 'Be brief.',
    silent_seconds: o.silent_seconds ?? 5,
    silent_times: o.silent_times ?? 2,
    redial_times: o.redial_times ?? 1,
    redial_interval_minutes: o.redial_interval_minutes ?? 30,
    time_zone: o.time_zone,
    voice_provider: 'azure',
  });
  return r.id as number;
}

export async function makeNumber(admin: ApiClient, phone: string, provider = 'aliyun', country = 'CN'): Promise<number> {
  const r = await admin.ok('POST', 'call-center/number/create', { phone, provider, country_code: country, status: 1 });
  return r.id as number;
}

export async function makeTask(admin: ApiClient, body: Record<string, unknown>): Promise<Record<string, any>> {
  seq += 1;
  return admin.ok('POST', 'call-center/task/create', { name: `Campaign ${seq}`, mode: 'manual', ...body });
}

export interface Attempt {
  id: number;
  target_id: number;
  callee_number: string;
  attempt: number;
  result: number | null;
  status: string;
  dialer: string;
  dry_run: boolean;
  outcome: string;
  request: any;
  called_at: Date;
  provider_call_id: string | null;
  duration_seconds: number;
}

export const attempts = async (s: TestServer, taskId: number): Promise<Attempt[]> =>
  (await s.db.query<Attempt>('SELECT * FROM call_log WHERE task_id = $1 ORDER BY id', [taskId])).rows;

export const targets = async (s: TestServer, taskId: number) =>
  (await s.db.query<{ phone: string; state: string; attempts: number; outcome: string | null; next_at: Date | null; result: number | null }>(
    'SELECT phone, state, attempts, outcome, next_at, result FROM call_target WHERE task_id = $1 ORDER BY id',
    [taskId],
  )).rows;

export const task = async (s: TestServer, id: number) =>
  (await s.db.query<{ status: string; pause_reason: string | null; resume_at: Date | null; finished_at: Date | null }>(
    'SELECT status, pause_reason, resume_at, finished_at FROM call_task WHERE id = $1',
    [id],
  )).rows[0];

/**
 * Waits until the task's round of dialling has ended: no `voice.campaign` job of it queued or
 * running. A round's job loops while numbers are due, so a test that moves the clock to the next
 * redial while the last round's job still runs would see that job place the next round too.
 */
export const untilRoundEnded = (s: TestServer, taskId: number, ms = 60_000) =>
  until(
    () => s.db.query(`SELECT 1 FROM work_job WHERE kind = 'voice.campaign' AND ref_type = 'call_task' AND ref_id = $1 AND state IN ('queued', 'running')`, [taskId]),
    (r) => r.rows.length === 0,
    ms,
  );

/** Waits until the task has `n` attempts recorded and none is still being placed by the dry run. */
export const untilAttempts = (s: TestServer, taskId: number, n: number, ms = 60_000) =>
  until(() => attempts(s, taskId), (a) => a.length >= n && a.every((x) => x.status === 'ended'), ms);

/**
 * Lets the campaign ticker run from now: waits until pg-boss's job table holds `max(n, 2)` more
 * completed runs of it — the first may have begun before the call, so at least one more whole
 * run follows it — so an assertion that "nothing happened" follows real ticks even on a loaded
 * machine, where a fixed wait could end before the ticker ran at all.
 */
export async function ticks(s: TestServer, n = 2): Promise<void> {
  const done = async () =>
    (
      await s.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${s.config.jobsSchema.replace(/"/g, '""')}".job WHERE name = 'tick' AND data->>'name' = 'voice.campaign' AND state = 'completed'`,
      )
    ).rows[0].n;
  const from = await done();
  await until(done, (c) => c >= from + Math.max(n, 2), 120_000);
}

export const auditActions = async (s: TestServer, taskId: number): Promise<string[]> =>
  (await s.db.query<{ action: string }>("SELECT action FROM audit_logs WHERE resource = 'call_task' AND target_id = $1 ORDER BY id", [String(taskId)])).rows.map(
    (r) => r.action,
  );
