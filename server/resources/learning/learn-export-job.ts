/**
 * `export.learn_material`: writes a large learn-material export into the database
 * (learn_export_chunk rows, one per batch of rows, ~1 MB at most for XLSX) with progress
 * (rows written of rows), then marks it done with an expiry 24 hours on (engine clock).
 * CSV resumes after the last chunk written (each chunk records its last material id, and a
 * chunk commits with the export's counters); XLSX (one zip stream) starts again from the
 * first row when a job is delivered again. `export.cleanup` deletes expired files.
 */
import { PassThrough } from 'node:stream';
import type { Db } from '../../db/db.js';
import type { JobKind, Ticker } from '../../jobs/types.js';
import { batches, countRows, csvHeader, csvLines, EXPORT_KIND, EXPORT_TTL_MS, writeXlsx, type Lang } from './learn-export-file.js';
import { learnMaterial } from './learn-material.js';

interface ExportRecord {
  id: number;
  format: 'csv' | 'xlsx';
  filters: Record<string, unknown>;
  lang: Lang;
  status: string;
}

const XLSX_CHUNK = 1024 * 1024;

async function addChunk(db: Db, exportId: number, jobId: number, seq: number, data: Buffer, rows: number, lastId: number, written: number) {
  await db.tx(async (q) => {
    await q.query(`INSERT INTO learn_export_chunk (export_id, seq, last_id, rows, data) VALUES ($1, $2, $3, $4, $5)`, [exportId, seq, lastId, rows, data]);
    await q.query(`UPDATE learn_export SET rows_written = $3, size = size + $4 WHERE id = $1 AND job_id = $2`, [exportId, jobId, written, data.length]);
  });
}

export const exportKind: JobKind<{ exportId: number }> = {
  kind: EXPORT_KIND,
  title: (d) => `Export learning materials ${d.exportId} / 导出学习素材 ${d.exportId}`,
  maxAttempts: 3,
  // hours of export before the engine takes the run as lost (pg-boss allows at most 24 h)
  timeoutSeconds: 6 * 3600,
  async run(ctx) {
    const id = ctx.job.data.exportId;
    const e = (
      await ctx.db.query<ExportRecord>(
        `UPDATE learn_export SET status = 'running' WHERE id = $1 AND job_id = $2 AND status IN ('queued', 'running')
         RETURNING id, format, filters, lang, status`,
        [id, ctx.job.id],
      )
    ).rows[0];
    if (!e) return { skipped: true };
    const total = await countRows(learnMaterial, ctx.db, e.filters);
    await ctx.db.query(`UPDATE learn_export SET rows_total = $2 WHERE id = $1`, [id, total]);
    const lang = (e.lang || '') as Lang;
    let written = 0;
    if (e.format === 'csv') {
      const done = (
        await ctx.db.query<{ seq: number | null; last_id: number | null; rows: number }>(
          `SELECT max(seq) AS seq, (SELECT last_id FROM learn_export_chunk WHERE export_id = $1 ORDER BY seq DESC LIMIT 1) AS last_id,
                  COALESCE(sum(rows), 0)::int AS rows
             FROM learn_export_chunk WHERE export_id = $1`,
          [id],
        )
      ).rows[0];
      let seq = done.seq === null ? 0 : Number(done.seq) + 1;
      written = done.rows;
      // size and counters from the chunks kept (a resumed run continues after them)
      await ctx.db.query(`UPDATE learn_export SET rows_written = $2, size = (SELECT COALESCE(sum(length(data)), 0) FROM learn_export_chunk WHERE export_id = $1) WHERE id = $1`, [id, written]);
      await ctx.progress(written, total);
      if (seq === 0) {
        await addChunk(ctx.db, id, ctx.job.id, seq++, Buffer.from(csvHeader(lang), 'utf8'), 0, 2147483647, 0);
      }
      const below = done.last_id === null ? 2147483647 : Number(done.last_id);
      for await (const b of batches(learnMaterial, ctx.db, e.filters, below)) {
        written += b.length;
        await addChunk(ctx.db, id, ctx.job.id, seq++, Buffer.from(csvLines(b, lang), 'utf8'), b.length, Number(b[b.length - 1].id), written);
        await ctx.progress(written, total);
      }
    } else {
      await ctx.db.query(`DELETE FROM learn_export_chunk WHERE export_id = $1`, [id]);
      await ctx.db.query(`UPDATE learn_export SET rows_written = 0, size = 0 WHERE id = $1`, [id]);
      await ctx.progress(0, total);
      const out = new PassThrough();
      const parts: Buffer[] = [];
      let pending = 0;
      out.on('data', (b: Buffer) => {
        parts.push(b);
        pending += b.length;
      });
      let seq = 0;
      let inChunk = 0;
      const flush = async (all: boolean) => {
        if (!pending || (!all && pending < XLSX_CHUNK)) return;
        const data = Buffer.concat(parts.splice(0));
        pending = 0;
        await addChunk(ctx.db, id, ctx.job.id, seq++, data, inChunk, 0, written);
        inChunk = 0;
      };
      const ended = new Promise<void>((res, rej) => {
        out.on('end', res);
        out.on('error', rej);
      });
      await writeXlsx(batches(learnMaterial, ctx.db, e.filters), out, lang, async (n) => {
        written += n;
        inChunk += n;
        await flush(false);
        await ctx.progress(written, total);
      });
      await ended;
      await flush(true);
      await ctx.db.query(`UPDATE learn_export SET rows_written = $2 WHERE id = $1`, [id, written]);
    }
    const now = ctx.now();
    await ctx.db.query(
      `UPDATE learn_export SET status = 'done', finished_at = $3, expires_at = $4, error = '' WHERE id = $1 AND job_id = $2`,
      [id, ctx.job.id, now, new Date(now.getTime() + EXPORT_TTL_MS)],
    );
    await ctx.progress(written, total);
    return { rows: written, total };
  },
};

/** `export.cleanup` (every 5 minutes): expired export files are deleted, the rows kept as 'expired'. */
export const exportCleanupTicker: Ticker = {
  name: 'export.cleanup',
  everySeconds: 300,
  async run({ db, now }) {
    await db.tx(async (q) => {
      const gone = await q.query<{ id: number }>(
        `UPDATE learn_export SET status = 'expired' WHERE status = 'done' AND expires_at <= $1 RETURNING id`,
        [now()],
      );
      const ids = gone.rows.map((r) => Number(r.id));
      if (ids.length) await q.query(`DELETE FROM learn_export_chunk WHERE export_id = ANY($1::int[])`, [ids]);
    });
  },
};
