/**
 * `doc.learn`: learns an uploaded document (learn-doc/create, learn-doc/learn enqueue it in the
 * transaction that stores the file). The text is read by server/ai/parse (a worker thread with
 * memory and time caps), then in one transaction: the document becomes learned (status 1, its
 * text kept), and its chunks (its own size / overlap) replace any old ones in the knowledge
 * index. A document the parser refuses (scanned PDF, password, too large, bomb…) fails at once
 * with the parser's reason (status 2); other errors retry, and fail the document on the last try.
 * Killed mid-way, the job is delivered again and starts over (nothing was written).
 */
import { reindexSources } from '../../ai/knowledge/index.js';
import { isParseError, parseDocument } from '../../ai/parse/index.js';
import { PermanentJobError, type JobKind } from '../../jobs/types.js';

export const DOC_LEARN = 'doc.learn';
const MAX_ATTEMPTS = 3;

export const docLearnKind: JobKind<{ docId: number }> = {
  kind: DOC_LEARN,
  title: (d) => `Learn document #${d.docId} / 学习文档 #${d.docId}`,
  maxAttempts: MAX_ATTEMPTS,
  retryDelaySeconds: 5,
  timeoutSeconds: 5 * 60,
  async run(ctx) {
    const { docId } = ctx.job.data;
    const r = await ctx.db.query<{ file_type: string; file: Uint8Array | null; status: number }>(
      `SELECT file_type, file, status FROM learn_doc WHERE id = $1`,
      [docId],
    );
    const doc = r.rows[0];
    if (!doc) return { skipped: 'the document was deleted' };
    if (doc.status !== 0) return { skipped: `the document is no longer waiting to be learned (status ${doc.status})` };
    await ctx.progress(0, 3);
    const fail = async (reason: string, message: string) => {
      await ctx.db.query(`UPDATE learn_doc SET status = 2, error = $2 WHERE id = $1 AND status = 0`, [docId, message.slice(0, 500)]);
      return { failed: reason };
    };
    let text: string;
    let pages: number | undefined;
    try {
      const parsed = await parseDocument(doc.file_type, doc.file ?? new Uint8Array());
      text = parsed.text;
      pages = parsed.pages;
    } catch (err) {
      if (isParseError(err)) {
        await fail(err.reason, err.message);
        throw new PermanentJobError(err.message);
      }
      if (ctx.job.attempt >= MAX_ATTEMPTS) await fail('error', `learning failed: ${(err as Error).message} / 学习失败`);
      throw err;
    }
    await ctx.progress(1, 3);
    const chunks = await ctx.db.tx(async (q) => {
      const u = await q.query(`UPDATE learn_doc SET status = 1, content = $2, error = '', learned_at = $3 WHERE id = $1 AND status = 0`, [docId, text, ctx.now()]);
      if (!u.affectedRows) return -1; // deleted or re-queued meanwhile
      const n = await reindexSources(q, [{ type: 'learn_doc', id: docId }]);
      await q.query(`DELETE FROM knowledge_pending WHERE source_type = 'learn_doc' AND source_id = $1`, [docId]);
      return n;
    });
    await ctx.progress(3, 3);
    if (chunks < 0) return { skipped: 'the document changed while it was read' };
    return { chars: text.length, chunks, ...(pages ? { pages } : {}) };
  },
};
