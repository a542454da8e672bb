import { Type, type Static } from '@sinclair/typebox';

/**
 * The reply of a batch action (`POST <list>/batch`, server/resources/engine/batch-actions.ts, and
 * the session list's batch status), declared once: the server's reply schema and the console's
 * report of it (src/runtime/actions.ts `batchReport`).
 */

/** One row's result. */
export const BatchResultReply = Type.Object({
  id: Type.Integer(),
  ok: Type.Boolean(),
  /** ok, but nothing to do: the row was already so (`msg` says how) */
  skipped: Type.Optional(Type.Boolean()),
  /** the refusal's code (40009 status, 40004 gone, …) */
  code: Type.Optional(Type.Integer()),
  msg: Type.Optional(Type.String()),
});

/** Its counts (done = changed, skipped = already so, refused) and one result per row, beside what the action adds (its name …). */
export const BATCH_REPLY_PROPS = {
  total: Type.Integer(),
  done: Type.Integer(),
  skipped: Type.Integer(),
  refused: Type.Integer(),
  results: Type.Array(BatchResultReply),
};
export const BatchReply = Type.Object(BATCH_REPLY_PROPS);

export type BatchResult = Static<typeof BatchResultReply>;
export type BatchReply = Static<typeof BatchReply>;
