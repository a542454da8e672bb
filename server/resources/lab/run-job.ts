/**
 * `lab.task-run`: runs a test or rating task over its dataset, question by question
 * (docs/modules/lab.md "Runs"). Each question → `answerQuestion()` → the scoring cascade → one
 * result row, written as it goes (unique per task and sample: ON CONFLICT DO NOTHING), with the
 * task's done / passed / avg_score updated in the same transaction. Between questions (and every
 * second while one is being answered) the job reads the task: paused or stopped → it ends;
 * resumed → a new job carries on from the first unanswered question. After a crash the engine
 * delivers the job again and it does the same. The job works for about a minute, then hands the
 * lease to a continuation job, so one long run does not hold a worker slot for hours.
 */
import type { Db, Queryable } from '../../db/db.js';
import { writeAudit } from '../../auth/audit.js';
import { RESULT_COLUMNS, evaluateSample, setupOf, type ResultValues } from './run-answer.js';
import { databaseUnavailable } from '../../db/unavailable.js';
import { JobCancelled, JobInterrupted, PermanentJobError, type JobContext, type JobKind } from '../../jobs/types.js';
import type { Sample } from './samples.js';

export { RESULT_COLUMNS, evaluateSample, setupOf, type ResultValues } from './run-answer.js';
import { LEASE_LIVE, RUN_AREAS, RUN_KIND, isRunTable, runTitle, type RunArea, type RunJobData } from './run-start.js';

/** how long one job works before it hands over to a continuation (tests shorten it) */
export const RUN_SLICE = { ms: 60_000 };
/** how often the status is read while a question is being answered */
const WATCH_MS = 1_000;

interface TaskRow {
  id: number;
  name: string;
  status: string;
  dataset_id: number;
  assistant_id: number | null;
  prompt: string;
  prompt_version_id: number | null;
  model_server_id: number | null;
  judge_model_server_id: number | null;
  judge_prompt: string | null;
  shop_id: number | null;
  pass_threshold: string | number;
}

const SYSTEM_ACTOR = { id: null, email: 'system', ip: '', userAgent: 'work engine' };

/** Takes the lease for this job: the task is running and no other live job holds it. */
async function claim(db: Db, table: string, taskId: number, me: number): Promise<TaskRow | null> {
  const r = await db.query<TaskRow>(
    `UPDATE ${table} t SET run_job_id = $2
      WHERE t.id = $1 AND t.status = 'running' AND (t.run_job_id IS NULL OR t.run_job_id = $2 OR NOT ${LEASE_LIVE})
      RETURNING t.id, t.name, t.status, t.dataset_id, t.assistant_id, t.prompt, t.prompt_version_id, t.model_server_id, t.judge_model_server_id, t.judge_prompt, t.shop_id, t.pass_threshold`,
    [taskId, me],
  );
  return r.rows[0] ?? null;
}

/**
 * Between questions: 'go' while the task runs under this job's lease; 'end' when it was paused
 * or stopped (the lease is let go in the same statement, so a resume cannot slip in between)
 * or another job holds the lease.
 */
async function mayGoOn(db: Db, table: string, taskId: number, me: number): Promise<'go' | 'end'> {
  const released = await db.query(`UPDATE ${table} SET run_job_id = NULL WHERE id = $1 AND run_job_id = $2 AND status <> 'running' RETURNING id`, [
    taskId,
    me,
  ]);
  if (released.rows.length) return 'end';
  const r = await db.query<{ status: string; run_job_id: string | number | null }>(`SELECT status, run_job_id FROM ${table} WHERE id = $1`, [taskId]);
  const row = r.rows[0];
  return row && row.status === 'running' && Number(row.run_job_id) === me ? 'go' : 'end';
}

/** An AbortSignal that fires when the job's own signal does or the task stops running under us. */
function watch(db: Db, table: string, taskId: number, me: number, outer: AbortSignal): { signal: AbortSignal; stop(): void } {
  const ctl = new AbortController();
  const timer = setInterval(() => {
    db.query<{ status: string; run_job_id: string | number | null }>(`SELECT status, run_job_id FROM ${table} WHERE id = $1`, [taskId])
      .then((r) => {
        const row = r.rows[0];
        if (!row || row.status !== 'running' || Number(row.run_job_id) !== me) ctl.abort(new Error('the task is no longer running / 任务已暂停或终止'));
      })
      .catch(() => undefined);
  }, WATCH_MS);
  timer.unref();
  return { signal: AbortSignal.any([outer, ctl.signal]), stop: () => clearInterval(timer) };
}

/** The task's done / passed / errors / avg_score (of the scored answers) / judge_tokens / cost from its result rows. */
export async function refreshCounters(q: Queryable, table: string, taskId: number): Promise<void> {
  await q.query(
    `UPDATE ${table} t SET done = r.done, passed = r.passed, errors = r.errors, avg_score = r.avg, judge_tokens = r.judge, cost = r.cost, updated_at = now()
       FROM (SELECT count(*)::int AS done, count(*) FILTER (WHERE passed)::int AS passed, count(*) FILTER (WHERE outcome = 'error')::int AS errors,
                    round(avg(score), 2) AS avg, COALESCE(sum(judge_tokens), 0)::int AS judge, COALESCE(sum(cost), 0) AS cost
               FROM ${table}_result WHERE task_id = $1) r
      WHERE t.id = $1`,
    [taskId],
  );
}

/** Writes one result row and the task's counters in one transaction; false when it was there already. */
async function record(db: Db, table: string, taskId: number, index: number, values: ResultValues): Promise<boolean> {
  return db.tx(async (q) => {
    const ph = values.map((_, i) => `$${i + 3}`).join(', ');
    const ins = await q.query(
      `INSERT INTO ${table}_result (task_id, sample_index, ${RESULT_COLUMNS}) VALUES ($1, $2, ${ph})
       ON CONFLICT (task_id, sample_index) DO NOTHING RETURNING id`,
      [taskId, index, ...values],
    );
    if (!ins.rows.length) return false;
    await refreshCounters(q, table, taskId);
    return true;
  });
}

async function run(ctx: JobContext<RunJobData>): Promise<unknown> {
  const { table, taskId } = ctx.job.data;
  if (!isRunTable(table) || table === 'lab_train_task') throw new PermanentJobError(`not a task table: ${String(table)}`);
  const me = ctx.job.id;
  const db = ctx.db;
  const task = await claim(db, table, taskId, me);
  if (!task) return { ran: 0, note: 'the task is not running, or another run holds it / 任务未在运行或已由其他执行占用' };
  try {
    const ds = await db.query<{ samples: Sample[] }>(`SELECT samples FROM ${table === 'text_task' ? 'text_dataset' : 'text_rating_dataset'} WHERE id = $1`, [task.dataset_id]);
    const samples = ds.rows[0]?.samples ?? [];
    await db.query(`UPDATE ${table} SET total = $2 WHERE id = $1 AND total <> $2`, [taskId, samples.length]);
    const setup = await setupOf(db, task);
    const done = new Set((await db.query<{ i: number }>(`SELECT sample_index AS i FROM ${table}_result WHERE task_id = $1`, [taskId])).rows.map((r) => Number(r.i)));
    const until = Date.now() + RUN_SLICE.ms;
    let ran = 0;
    for (let i = 1; i <= samples.length; i++) {
      if (done.has(i)) continue;
      if ((await mayGoOn(db, table, taskId, me)) === 'end') return { ran, ended: 'paused, stopped or taken over / 已暂停、终止或转交' };
      if (Date.now() > until) return { ran, continued: await handOver(ctx, RUN_AREAS[table], task) };
      const w = watch(db, table, taskId, me, ctx.signal);
      try {
        const values = await evaluateSample(db, setup, samples[i - 1], w.signal, { refType: table, refId: taskId });
        if (await record(db, table, taskId, i, values)) ran++;
      } catch (err) {
        if (ctx.signal.aborted || !w.signal.aborted) throw err;
        continue; // the task was paused or stopped mid-question: the loop's check ends the job
      } finally {
        w.stop();
      }
      done.add(i);
      await ctx.progress(done.size, samples.length);
    }
    const fin = await db.tx(async (q) => {
      const r = await q.query(
        `UPDATE ${table} SET status = 'finished', finished_at = $3, run_job_id = NULL, updated_at = now()
          WHERE id = $1 AND status = 'running' AND run_job_id = $2 RETURNING id`,
        [taskId, me, ctx.now()],
      );
      if (r.rows.length) {
        await writeAudit(q, SYSTEM_ACTOR, { action: 'finish', resource: table, targetId: taskId, after: { status: 'finished', job: me } });
      }
      return r.rows.length > 0;
    });
    return { ran, finished: fin };
  } catch (err) {
    if (err instanceof JobCancelled || ctx.signal.reason instanceof JobCancelled) {
      // cancelled on the Jobs page: the task pauses (start resumes it)
      await db.query(`UPDATE ${table} SET status = 'pausing', run_job_id = NULL, updated_at = now() WHERE id = $1 AND status = 'running' AND run_job_id = $2`, [taskId, me]);
    } else if (!ctx.signal.aborted && !(err instanceof JobInterrupted) && !databaseUnavailable(err)) {
      // (a stop or a database outage is not the run's error: the job is handed over and goes on)
      await db.query(`UPDATE ${table} SET run_error = $3 WHERE id = $1 AND run_job_id = $2`, [taskId, me, String((err as Error)?.message ?? err).slice(0, 2000)]);
    }
    throw err;
  }
}

/** Enqueues the next slice and hands it the lease (one transaction); its id. */
async function handOver(ctx: JobContext<RunJobData>, area: RunArea, task: TaskRow): Promise<number | null> {
  return ctx.db.tx(async (q) => {
    const r = await q.query(`SELECT 1 FROM ${area.table} WHERE id = $1 AND status = 'running' AND run_job_id = $2 FOR UPDATE`, [task.id, ctx.job.id]);
    if (!r.rows.length) return null;
    const { id } = await ctx.enqueue(q, area.kind, ctx.job.data, { createdBy: ctx.job.createdBy, ref: { type: area.table, id: task.id }, title: runTitle(area, task.id, task.name) });
    await q.query(`UPDATE ${area.table} SET run_job_id = $2 WHERE id = $1`, [task.id, id]);
    return id;
  });
}

export const taskRunKind: JobKind<RunJobData> = {
  kind: RUN_KIND,
  title: (d) => `Run task #${d.taskId} / 运行任务 #${d.taskId}`,
  retryDelaySeconds: 5,
  timeoutSeconds: 30 * 60,
  run,
};
