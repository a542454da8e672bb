/**
 * The Jobs page (admin_center, system/jobs): what the work engine runs, newest first, with
 * progress, attempts, the last error and who started it; retry and cancel (audited in the same
 * transaction). `job/of` lets a page show the progress of its own records' jobs to anyone who
 * may open that page. The engine itself is server/jobs (docs/architecture.md "The work engine").
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { Keys } from '../auth/guards.js';
import type { Queryable } from '../db/db.js';
import { conflict, forbidden, notFound } from '../http/errors.js';
import { pageFields, pageReply, paged } from '../http/list.js';
import { allowed } from '../http/register.js';
import { defineRoutes, route, type RouteDef } from '../http/route.js';
import { Nullable, StringEnum } from '../http/typebox.js';
import { pickLang, pickTitle, requestLang, type Lang } from '../http/lang.js';
import { JOB_STATES } from '../jobs/types.js';

/** The page that shows records of a ref type: who may open it may see those records' jobs. */
export const REF_PAGE_KEYS: Record<string, string> = {
  learn_doc: 'intelligent_text.text.learn.doc_manage',
  text_task: 'intelligent_text.text.script_manage.task_list',
  text_rating_task: 'intelligent_text.text.script_manage.rating_task_list',
  lab_train_task: 'panda_descendant.lab.train.task',
  call_task: 'intelligent_voice.admin.call_center.call_task',
  product_desc: 'intelligent_text.text.learn.product_knowledge',
  learn_export: 'intelligent_text.text.learn.material',
  notification: 'intelligent_text.text.merchant_notice.notice_list',
  config_auto_learn: 'intelligent_text.admin.config_center.auto_learn',
  image_extraction: 'intelligent_text.text.operations_tools.image_extraction',
  shop: 'intelligent_text.text.shop.sync_log',
};

const when = Nullable(Type.String({ format: 'date-time' }));
const Live = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  title: Type.String(),
  ref_type: Nullable(Type.String()),
  ref_id: Nullable(Type.Integer()),
  state: StringEnum(JOB_STATES),
  progress_done: Type.Integer(),
  progress_total: Type.Integer(),
  /** percent 0–100 (0 while the total is unknown) */
  progress: Type.Integer(),
  /** tries that ran to an outcome (the one running included); a failure of the job spends one */
  attempts: Type.Integer(),
  max_attempts: Type.Integer(),
  /** times a crash, kill, stop or database outage cut a run off: queued again, no attempt spent */
  interruptions: Type.Integer(),
  last_error: Type.String(),
  cancel_requested: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  started_at: when,
  finished_at: when,
  updated_at: Type.String({ format: 'date-time' }),
});
const Row = Type.Object({
  ...Live.properties,
  created_by: Nullable(Type.Integer()),
  created_by_name: Nullable(Type.String()),
  created_by_email: Nullable(Type.String()),
});
const Detail = Type.Object({ ...Row.properties, data: Type.Unknown(), result: Type.Unknown(), worker_id: Nullable(Type.String()) });
type Live = Static<typeof Live>;
type Row = Static<typeof Row>;

const LIVE_COLS = `j.id, j.kind, j.title, j.ref_type, j.ref_id, j.state, j.progress_done, j.progress_total,
  CASE WHEN j.progress_total > 0 THEN least(100, j.progress_done * 100 / j.progress_total) WHEN j.state = 'done' THEN 100 ELSE 0 END AS progress,
  j.attempts, j.max_attempts, j.interruptions, j.last_error, j.cancel_requested, j.created_at, j.started_at, j.finished_at, j.updated_at`;
const ROW_COLS = `${LIVE_COLS}, j.created_by, a.name AS created_by_name, a.email AS created_by_email`;
const FROM = 'FROM work_job j LEFT JOIN accounts a ON a.id = j.created_by';

const filters = {
  state: Type.Optional(StringEnum(JOB_STATES)),
  kind: Type.Optional(Type.String({ maxLength: 64 })),
  ref_type: Type.Optional(Type.String({ maxLength: 64 })),
  ref_id: Type.Optional(Type.Integer({ minimum: 1 })),
  created_by: Type.Optional(Type.Integer({ minimum: 1, description: 'account id of who started it' })),
  keyword: Type.Optional(Type.String({ maxLength: 200, description: 'part of the title' })),
};
const listQuery = Type.Object({ ...pageFields, ...filters });
type Filters = Static<typeof listQuery>;

function where(f: Filters): { sql: string; params: unknown[] } {
  const keyword = f.keyword?.trim();
  return {
    sql: `${FROM} WHERE ($1::text IS NULL OR j.state = $1::text) AND ($2::text IS NULL OR j.kind = $2::text)
      AND ($3::text IS NULL OR j.ref_type = $3::text) AND ($4::bigint IS NULL OR j.ref_id = $4::bigint)
      AND ($5::int IS NULL OR j.created_by = $5::int)
      AND ($6::text IS NULL OR j.title ILIKE '%' || replace(replace(replace($6::text, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')`,
    params: [f.state || null, f.kind || null, f.ref_type || null, f.ref_id ?? null, f.created_by ?? null, keyword || null],
  };
}

const id = Type.Integer({ minimum: 1 });
const idBody = Type.Object({ id });

/** The job's state for the audit row and the 40009 message; 40004 when there is no such job. */
async function stateOf(ctx: { db: Queryable }, id: number): Promise<{ state: string; attempts: number }> {
  const r = await ctx.db.query<{ state: string; attempts: number }>('SELECT state, attempts FROM work_job WHERE id = $1 FOR UPDATE', [id]);
  if (!r.rows[0]) throw notFound(`job ${id}`);
  return r.rows[0];
}

/**
 * A job's title and last error are written "english / 中文" (the worker has no caller); the
 * console gets the half of its language (x-lang), an API client without one gets both.
 */
function inLang<T extends Live>(row: T, lang: Lang | null): T {
  if (!lang || !row) return row;
  return { ...row, title: pickTitle(row.title, lang), last_error: pickLang(row.last_error, lang) };
}

async function liveRow(ctx: { db: Queryable; req: FastifyRequest }, id: number): Promise<Row> {
  return inLang((await ctx.db.query<Row>(`SELECT ${ROW_COLS} ${FROM} WHERE j.id = $1`, [id])).rows[0], requestLang(ctx.req));
}

const routes: RouteDef[] = defineRoutes([
  route({
    method: 'GET',
    path: 'job/list',
    access: { permission: Keys.job },
    summary: 'Jobs of the work engine, newest first, paged; filter by state, kind, ref (type, id), who started it, title',
    query: listQuery,
    reply: pageReply(Row),
    async handler(ctx) {
      const w = where(ctx.query);
      const page = await paged<Row>(ctx.db, { select: ROW_COLS, fromWhere: w.sql, orderBy: 'j.id DESC', params: w.params }, ctx.query);
      const lang = requestLang(ctx.req);
      return { ...page, list: page.list.map((r) => inLang(r, lang)) };
    },
  }),
  route({
    method: 'GET',
    path: 'job/detail',
    access: { permission: [Keys.job, Keys.jobDetail] },
    summary: 'One job with its data and result',
    query: Type.Object({ id }),
    reply: Detail,
    async handler(ctx) {
      const r = await ctx.db.query<Static<typeof Detail>>(`SELECT ${ROW_COLS}, j.data, j.result, j.worker_id ${FROM} WHERE j.id = $1`, [ctx.query.id]);
      if (!r.rows[0]) throw notFound(`job ${ctx.query.id}`);
      return inLang(r.rows[0], requestLang(ctx.req));
    },
  }),
  route({
    method: 'GET',
    path: 'job/of',
    access: 'login',
    summary:
      'The latest jobs (at most 20, newest first) of one record, e.g. ref_type=learn_doc&ref_id=12: state and progress only. ' +
      'Allowed to whoever may open the page of that record type (or the Jobs page)',
    query: Type.Object({ ref_type: Type.String({ maxLength: 64 }), ref_id: Type.Integer({ minimum: 1 }) }),
    reply: Type.Array(Live),
    async handler(ctx) {
      const pageKey = REF_PAGE_KEYS[ctx.query.ref_type];
      const keys = pageKey ? [Keys.job, pageKey] : [Keys.job];
      if (!allowed({ permission: keys }, ctx.user)) throw forbidden();
      const r = await ctx.db.query<Live>(
        `SELECT ${LIVE_COLS} FROM work_job j WHERE j.ref_type = $1 AND j.ref_id = $2 ORDER BY j.id DESC LIMIT 20`,
        [ctx.query.ref_type, ctx.query.ref_id],
      );
      const lang = requestLang(ctx.req);
      return r.rows.map((row) => inLang(row, lang));
    },
  }),
  route({
    method: 'POST',
    path: 'job/cancel',
    access: { permission: Keys.jobCancel },
    summary: 'Cancels a queued job at once, a running one at its next progress call (within a few seconds); 40009 when it is over',
    body: idBody,
    reply: Row,
    async handler(ctx) {
      const { id } = ctx.body;
      const before = await stateOf(ctx, id);
      if (!(await ctx.req.server.jobs.cancel(ctx.db, id))) {
        throw conflict(`job ${id} is ${before.state}: only a queued or running job can be cancelled / 任务已${stateZh(before.state)}，只能取消排队中或运行中的任务`);
      }
      const after = (await ctx.db.query<{ state: string; cancel_requested: boolean }>('SELECT state, cancel_requested FROM work_job WHERE id = $1', [id])).rows[0];
      await ctx.audit({ action: 'cancel', resource: 'job', targetId: id, before: { state: before.state }, after });
      return liveRow(ctx, id);
    },
  }),
  route({
    method: 'POST',
    path: 'job/retry',
    access: { permission: Keys.jobRetry },
    summary: 'Runs a failed or cancelled job again (a full round of attempts; attempts keep counting); 40009 otherwise',
    body: idBody,
    reply: Row,
    async handler(ctx) {
      const { id } = ctx.body;
      const before = await stateOf(ctx, id);
      if (!(await ctx.req.server.jobs.retry(ctx.db, id))) {
        const why = before.state === 'failed' || before.state === 'cancelled'
          ? `job ${id} is of a kind this server does not run / 此服务不运行该类型的任务`
          : `job ${id} is ${before.state}: only a failed or cancelled job can be retried / 任务${stateZh(before.state)}，只能重试失败或已取消的任务`;
        throw conflict(why);
      }
      await ctx.audit({ action: 'retry', resource: 'job', targetId: id, before, after: { state: 'queued' } });
      return liveRow(ctx, id);
    },
  }),
]);

function stateZh(state: string): string {
  return ({ queued: '排队中', running: '运行中', done: '已完成', failed: '失败', cancelled: '已取消' } as Record<string, string>)[state] ?? state;
}

/**
 * A test-only way to put a `system.noop` job on the queue (browser tests of the Jobs page):
 * registered only when the server starts with JOBS_TEST_ROUTES=1, never in a deployment.
 */
const testRoutes: RouteDef[] = defineRoutes([
  route({
    method: 'POST',
    path: 'job/test-noop',
    access: { permission: Keys.jobRetry },
    summary: 'TEST ONLY (JOBS_TEST_ROUTES=1): enqueues a system.noop job (steps of 100 ms, planned failures)',
    body: Type.Object({
      steps: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
      failTimes: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
      maxAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
      title: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    reply: Type.Object({ id: Type.Integer() }),
    handler(ctx) {
      const { steps, failTimes, maxAttempts, title } = ctx.body;
      return ctx.req.server.jobs.enqueue(ctx.db, 'system.noop', { steps, failTimes }, { createdBy: ctx.user?.id ?? null, maxAttempts, title });
    },
  }),
]);

const exported = process.env.JOBS_TEST_ROUTES === '1' ? [...routes, ...testRoutes] : routes;
export { exported as routes };
