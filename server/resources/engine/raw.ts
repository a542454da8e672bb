import type { FastifyReply } from 'fastify';
import { Code } from '../../../src/contract/codes.js';
import { writeAudit } from '../../auth/audit.js';
import type { Db, Queryable } from '../../db/db.js';
import type { RouteContext } from '../../http/route.js';

/**
 * Raw routes (multipart uploads) get the root database and own their reply. This runs `fn` in
 * one transaction with a context whose `db` and `audit` use that transaction, as for JSON POSTs.
 */
export async function inRawTx<T>(ctx: RouteContext, fn: (tx: RouteContext) => Promise<T>): Promise<T> {
  const db = ctx.db as Db;
  const run = (q: Queryable) =>
    fn({
      ...ctx,
      db: q,
      audit: (entry) =>
        writeAudit(q, { id: ctx.user?.id ?? null, email: ctx.user?.email ?? '', ip: ctx.req.ip ?? '', userAgent: String(ctx.req.headers['user-agent'] ?? '') }, entry),
    });
  return typeof db.tx === 'function' ? db.tx(run) : run(ctx.db);
}

/** Sends the success envelope from a raw route. */
export const sendOk = (reply: FastifyReply, data: unknown) => reply.send({ code: Code.OK, msg: 'ok', data });
