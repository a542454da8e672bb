/**
 * How an ingested record is stored (ingest.ts): by the platform's id, (shop, external id) — a
 * record seen for the first time is created, one whose content hash differs from the last one
 * overwrites its row, one that is the same writes nothing.
 */
import type { FieldError } from '../../src/contract/codes.js';
import type { Queryable } from '../db/db.js';
import type { JsonSchema } from '../http/route.js';

export type Rec = Record<string, unknown>;
export type Written = { status: 'created' | 'updated' | 'unchanged'; id: number };
/** a record the schema passed but that cannot be stored as it is (e.g. a session id it names does not exist) */
export class RecordProblem extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => e.field).join(', '));
  }
}

export interface IngestKind {
  /** the route path under /api/ingest/v1/ and the scope a token needs */
  path: string;
  scope: 'sessions' | 'mails' | 'orders' | 'feedback' | 'tickets' | 'call_logs';
  table: string;
  schema: JsonSchema;
  summary: string;
  write(q: Queryable, r: Rec, hash: string): Promise<Written>;
}

/**
 * Finds the row of (shop, external id) and creates, overwrites or leaves it. `cols` are the
 * columns the record sets (the same on insert and update). A concurrent batch inserting the same
 * id at the same moment is caught by the unique index and read back as an update.
 */
export async function upsert(q: Queryable, table: string, shopId: number, externalId: string, hash: string, cols: Rec): Promise<Written & { changed: boolean }> {
  const names = Object.keys(cols);
  const values = names.map((n) => cols[n]);
  for (let attempt = 0; attempt < 2; attempt++) {
    const found = await q.query<{ id: number; ingest_hash: string | null }>(
      `SELECT id, ingest_hash FROM ${table} WHERE shop_id = $1 AND external_id = $2 FOR UPDATE`,
      [shopId, externalId],
    );
    const row = found.rows[0];
    if (row) {
      if (row.ingest_hash === hash) return { status: 'unchanged', id: row.id, changed: false };
      await q.query(
        `UPDATE ${table} SET ${names.map((n, i) => `${n} = $${i + 2}`).join(', ')}, ingest_hash = $${names.length + 2} WHERE id = $1`,
        [row.id, ...values, hash],
      );
      return { status: 'updated', id: row.id, changed: true };
    }
    const ins = await q.query<{ id: number }>(
      `INSERT INTO ${table} (shop_id, external_id, ingest_hash, ${names.join(', ')})
       VALUES ($1, $2, $3, ${names.map((_, i) => `$${i + 4}`).join(', ')})
       ON CONFLICT (shop_id, external_id) WHERE external_id IS NOT NULL DO NOTHING RETURNING id`,
      [shopId, externalId, hash, ...values],
    );
    if (ins.rows[0]) return { status: 'created', id: ins.rows[0].id, changed: true };
  }
  throw new Error(`${table}: could not store external id ${externalId}`);
}

