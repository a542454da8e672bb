/** Limits the console and the server both hold to (one home for each). */

/** the most rows one batch call acts on: ids sent, or the rows a filter matches (server/resources/engine/batch-actions.ts) */
export const BATCH_ACTION_CAP = 500;
