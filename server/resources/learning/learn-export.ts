import { PassThrough, Readable } from 'node:stream';
import type { Queryable } from '../../db/db.js';
import { conflict, notFound } from '../../http/errors.js';
import { pickLang, requestLang } from '../../http/lang.js';
import { Type, type Static } from '@sinclair/typebox';
import { route, type RouteContext, type RouteDef } from '../../http/route.js';
import { inRawTx, sendOk } from '../engine/raw.js';
import { applyFilters, Sql } from '../engine/list.js';
import { Id, listQuerySchema } from '../engine/schemas.js';
import { check } from '../engine/validate.js';
import type { ResourceDef } from '../engine/types.js';
import { K } from '../keys.js';
import { pageReply } from '../../http/list.js';
import { batches, csvHeader, csvLines, EXPORT_KIND, writeXlsx, type Lang } from './learn-export-file.js';
import { FileReply, Nullable } from '../../http/typebox.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** what an export too large to stream answers: the job it started */
const ExportStarted = Type.Object({
  export_id: Type.Integer(),
  job_id: Type.Integer(),
  status: Type.String(),
  file_name: Type.String(),
  url: Type.String({ description: 'the exports page' }),
  message: Type.String(),
});

/**
 * `POST learn-material/export` (spec section 7: a download with a 24-hour timeout).
 *
 * - Filters are checked before the first byte: a bad one is a 40001 envelope, never a cut file.
 * - Up to `exportJobRows` rows (EXPORT_JOB_ROWS, default 5,000) the file streams in the reply.
 * - Past that, an `export.learn_material` job writes the file into the database in chunks
 *   (learn_export / learn_export_chunk: any instance serves it, on PGlite and PostgreSQL alike)
 *   with progress (rows written), and the reply is an envelope naming the export and the page
 *   that lists exports (`url`, which the console opens); `GET|POST learn-material/export/download`
 *   sends the file to the account that asked for it (or a super admin) for 24 hours.
 * - `lang` (zh-CN / en-US; else the Accept-Language header): column titles and enum values in
 *   that language; without one the columns are the field names and the values raw
 *   (learn-export-file.ts).
 */

/** the console page listing exports (the reply's `url` for an export that runs as a job) */
const EXPORTS_PAGE = '/intelligent_text/learn/material/exports';

/** More than `limit` rows? (stops reading at limit + 1 instead of counting them all) */
async function moreThan(def: ResourceDef, db: Queryable, filters: Record<string, unknown>, limit: number): Promise<boolean> {
  const sql = new Sql();
  applyFilters(def, filters, sql);
  const r = await db.query(`SELECT 1 FROM ${def.table} t${sql.whereSql} ORDER BY t.id DESC OFFSET ${Math.max(0, Math.floor(limit))} LIMIT 1`, sql.params);
  return r.rows.length > 0;
}

function langOf(body: Record<string, unknown>, acceptLanguage: string | undefined): Lang {
  if (body.lang === 'zh-CN' || body.lang === 'en-US') return body.lang;
  const first = (acceptLanguage ?? '').split(',')[0].trim().toLowerCase();
  if (first.startsWith('zh')) return 'zh-CN';
  if (first.startsWith('en')) return 'en-US';
  return '';
}

const stampOf = (d: Date) => d.toISOString().replace(/[-:]/g, '').slice(0, 15);

/** The export routes of a resource: the export itself, the exports of the caller, the download. */
export function exportRoutes(def: ResourceDef): RouteDef[] {
  const q = listQuerySchema(def);
  const { page: _p, page_size: _s, sort_by: _b, sort_order: _o, then_by: _tb, then_order: _to, ...filters } = q.properties;
  const bodySchema = {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...filters,
      format: { type: 'string', enum: ['csv', 'xlsx'], default: 'csv' },
      lang: { type: 'string', enum: ['zh-CN', 'en-US'] },
    },
  };
  const exportRoute: RouteDef = {
    method: 'POST',
    path: `${def.name}/export`,
    access: { permission: K.materialExport },
    summary: 'Download the filtered materials as CSV or XLSX: streamed up to EXPORT_JOB_ROWS rows, else written by a job (reply: the export, `url` of the exports page)',
    body: bodySchema,
    reply: FileReply(['text/csv', XLSX_TYPE], 'the filtered materials as CSV or XLSX', ExportStarted),
    raw: 'stream',
    handler: async (ctx) => {
      const { req, reply } = ctx;
      // every check before the first byte: a bad filter is a 40001 envelope
      const body = check<Record<string, unknown>>(bodySchema, { ...((req.body as object) ?? {}) });
      const { format, lang: _lang, ...where } = body;
      const lang = langOf(body, req.headers['accept-language']);
      const now = req.server.jobs.clock.now();
      const stamp = stampOf(now);
      const fileName = `learn-material-${stamp}.${String(format)}`;
      if (await moreThan(def, ctx.db, where, req.server.backofficeConfig.exportJobRows)) {
        const started = await inRawTx(ctx, async (tx) => {
          const e = await tx.db.query<{ id: number }>(
            `INSERT INTO learn_export (format, filters, lang, file_name, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
            [format, JSON.stringify(where), lang, fileName, ctx.user?.id ?? null],
          );
          const id = Number(e.rows[0].id);
          const job = await req.server.jobs.enqueue(tx.db, EXPORT_KIND, { exportId: id }, {
            createdBy: ctx.user?.id ?? null,
            ref: { type: 'learn_export', id },
            title: `Export ${fileName} / 导出 ${fileName}`,
          });
          await tx.db.query(`UPDATE learn_export SET job_id = $2 WHERE id = $1`, [id, job.id]);
          await tx.audit({ action: 'export', resource: 'learn_material', targetId: id, after: { export_id: id, job_id: job.id, format, filters: where } });
          return { id, jobId: job.id };
        });
        return sendOk(reply, {
          export_id: started.id,
          job_id: started.jobId,
          status: 'queued',
          file_name: fileName,
          url: EXPORTS_PAGE,
          message: pickLang('a large export runs in the background: its progress and download link are on the exports page / 导出数据较多，已在后台生成，请在导出记录页查看进度并下载', requestLang(req)),
        });
      }
      const rows = batches(def, ctx.db, where);
      if (format === 'xlsx') {
        const out = new PassThrough();
        reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', `attachment; filename="${fileName}"`);
        void writeXlsx(rows, out, lang).catch((err: Error) => out.destroy(err));
        return reply.send(out);
      }
      async function* csv() {
        yield csvHeader(lang);
        for await (const b of rows) yield csvLines(b, lang);
      }
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`);
      return reply.send(Readable.from(csv()));
    },
  };
  return [exportRoute, exportListRoute, downloadRoute('GET'), downloadRoute('POST')];
}

const EXPORT_PERMS = [K.materialExport, K.materialExports];

/** live export state: the job's when it failed or was cancelled, else the row's */
const STATE_SQL = `CASE WHEN e.status IN ('queued', 'running') AND j.state IN ('failed', 'cancelled') THEN 'failed'
                        WHEN e.status = 'done' AND e.expires_at <= $EXP::timestamptz THEN 'expired' ELSE e.status END`;

const int = Type.Integer();
const str = Type.String();
const dateTime = Type.String({ format: 'date-time' });
const exportRow = Type.Object({
  id: int,
  format: str,
  file_name: str,
  status: str,
  rows_total: int,
  rows_written: int,
  progress: str,
  percent: int,
  size: int,
  error: str,
  job_id: Nullable(int),
  created_by: Nullable(int),
  created_by_email: Nullable(str),
  created_at: dateTime,
  finished_at: Nullable(dateTime),
  expires_at: Nullable(dateTime),
});

/** the exports the caller may see: their own (a super admin: everyone's) */
const mine = (ctx: RouteContext<unknown, unknown>, params: unknown[]) => {
  if (ctx.user?.isSuperAdmin) return 'TRUE';
  params.push(ctx.user?.id ?? 0);
  return `e.created_by = $${params.length}`;
};

const EXPORT_PAGE = { page: 1, page_size: 10 };

const exportListRoute = route({
  method: 'GET',
  path: 'learn-material/export/list',
  access: { permission: EXPORT_PERMS },
  summary: 'Your learn-material exports (a super admin sees all): status, rows written of rows, expiry',
  query: Type.Object(
    {
      status: Type.Optional(Type.String({ enum: ['queued', 'running', 'done', 'failed', 'expired'] })),
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: EXPORT_PAGE.page })),
      page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: EXPORT_PAGE.page_size })),
    },
    { additionalProperties: false },
  ),
  reply: pageReply(exportRow),
  handler: async (ctx) => {
    // validation fills in the defaults; TypeBox still types the two as optional
    const q = { ...EXPORT_PAGE, ...ctx.query };
    const params: unknown[] = [ctx.req.server.jobs.clock.now()];
    const state = STATE_SQL.replace('$EXP', '$1');
    const where = [mine(ctx, params)];
    if (q.status) {
      params.push(q.status);
      where.push(`(${state}) = $${params.length}`);
    }
    const from = `FROM learn_export e LEFT JOIN work_job j ON j.id = e.job_id WHERE ${where.join(' AND ')}`;
    const total = (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT ${state} AS status ${from}) x`, params)).rows[0].n;
    const list = await ctx.db.query<Static<typeof exportRow>>(
      `SELECT e.id, e.format, e.file_name, ${state} AS status, e.rows_total, e.rows_written,
              e.rows_written || ' / ' || e.rows_total AS progress,
              CASE WHEN e.rows_total > 0 THEN (100 * e.rows_written / e.rows_total)::int WHEN e.status = 'done' THEN 100 ELSE 0 END AS percent,
              e.size::float8 AS size, COALESCE(NULLIF(e.error, ''), CASE WHEN j.state IN ('failed', 'cancelled') THEN j.last_error END, '') AS error,
              e.job_id::int AS job_id, e.created_by, (SELECT a.email FROM accounts a WHERE a.id = e.created_by) AS created_by_email,
              e.created_at, e.finished_at, e.expires_at
         ${from} ORDER BY e.id DESC LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`,
      params,
    );
    return { list: list.rows, total, page: q.page, page_size: q.page_size };
  },
});

function downloadRoute(method: 'GET' | 'POST'): RouteDef {
  const schema = Type.Object({ id: Id }, { additionalProperties: false });
  return {
    method,
    path: 'learn-material/export/download',
    access: { permission: EXPORT_PERMS },
    summary: 'The file of a finished export (its owner or a super admin; for 24 hours after it was written)',
    ...(method === 'GET' ? { query: schema } : { body: schema }),
    reply: FileReply(['text/csv', XLSX_TYPE], 'the export file as CSV or XLSX'),
    raw: 'stream',
    handler: async (ctx) => {
      const { req, reply } = ctx;
      const { id } = check(schema, method === 'GET' ? { ...(req.query as object) } : { ...((req.body as object) ?? {}) });
      const params: unknown[] = [id];
      const e = (
        await ctx.db.query<{ status: string; format: string; file_name: string; size: string; expires_at: Date | null }>(
          `SELECT e.status, e.format, e.file_name, e.size::text AS size, e.expires_at FROM learn_export e WHERE e.id = $1 AND ${mine(ctx, params)}`,
          params,
        )
      ).rows[0];
      if (!e) throw notFound('export');
      if (e.status !== 'done') throw conflict('this export is not finished yet / 导出尚未完成');
      if (!e.expires_at || e.expires_at.getTime() <= req.server.jobs.clock.now().getTime()) {
        throw conflict('this export has expired (exports are kept 24 hours): export again / 导出文件已过期（保留 24 小时），请重新导出');
      }
      const db = ctx.db;
      async function* chunks() {
        for (let seq = 0; ; seq++) {
          const c = await db.query<{ data: Uint8Array }>(`SELECT data FROM learn_export_chunk WHERE export_id = $1 AND seq = $2`, [id, seq]);
          if (!c.rows.length) return;
          yield Buffer.from(c.rows[0].data);
        }
      }
      reply
        .header('content-type', e.format === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${e.file_name}"`)
        .header('content-length', e.size);
      return reply.send(Readable.from(chunks()));
    },
  };
}
