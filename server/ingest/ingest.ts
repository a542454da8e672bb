/**
 * One ingestion batch: each record is checked against its kind's schema (server/ingest/records.ts)
 * and then stored by the platform's id: a record seen for the first time is `created`, one whose
 * content differs from what was last ingested under that id is `updated` (its row overwritten,
 * the messages / mails of a session replaced in place by position, server/ingest/children.ts), one that is the same as last time is `unchanged`
 * and writes nothing — so a retried batch makes no duplicate and no write. A bad record is
 * `rejected` with its fields named; the others still land. The batch runs in the request's one
 * transaction with its audit row.
 */
import { createHash } from 'node:crypto';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FieldError } from '../../src/contract/codes.js';
import type { Queryable } from '../db/db.js';
import { isCalendarDate } from '../plugins/calendar.js';
import { fieldErrors } from '../plugins/errors.js';
import { RecordProblem, type IngestKind, type Rec, type Written } from './store.js';

export type RecordStatus = Written['status'] | 'rejected';

export interface RecordResult {
  index: number;
  external_id: string | null;
  status: RecordStatus;
  /** the row's id in the console (null when rejected) */
  id: number | null;
  errors?: FieldError[];
}

/**
 * Key order does not matter: the same record always hashes the same. Written with a stack of its
 * own, not recursion, so no depth of document can overflow the call stack (the body's shape is
 * bounded before it gets here too: server/http/json-shape.ts). Same text as the recursive
 * version it replaced, so the hashes of stored rows still match.
 */
export function canonical(root: unknown): string {
  const out: string[] = [];
  const todo: Array<{ text: string } | { value: unknown }> = [{ value: root }];
  while (todo.length) {
    const item = todo.pop()!;
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    const v = item.value;
    const parts: Array<{ text: string } | { value: unknown }> = [];
    if (Array.isArray(v)) {
      parts.push({ text: '[' });
      v.forEach((x, i) => parts.push(...(i ? [{ text: ',' }] : []), { value: x }));
      parts.push({ text: ']' });
    } else if (v && typeof v === 'object') {
      parts.push({ text: '{' });
      Object.keys(v as Rec)
        .sort()
        .forEach((k, i) => parts.push({ text: `${i ? ',' : ''}${JSON.stringify(k)}:` }, { value: (v as Rec)[k] }));
      parts.push({ text: '}' });
    } else {
      out.push(JSON.stringify(v ?? null));
      continue;
    }
    for (let i = parts.length - 1; i >= 0; i--) todo.push(parts[i]);
  }
  return out.join('');
}
const hashOf = (r: Rec): string => createHash('sha256').update(canonical(r)).digest('hex');

const ajv = addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false })).addFormat('calendar-date', isCalendarDate);
const validators = new Map<IngestKind, ValidateFunction>();
const validatorOf = (k: IngestKind): ValidateFunction => {
  let v = validators.get(k);
  if (!v) validators.set(k, (v = ajv.compile(k.schema)));
  return v;
};

/** ajv reports every branch of an anyOf; keep one line per field (the first) */
function oneEach(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => (seen.has(e.field) ? false : (seen.add(e.field), true))).slice(0, 20);
}

export interface BatchOutcome {
  results: RecordResult[];
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

/**
 * Checks and stores each record in order, each inside a savepoint: a record that still fails
 * in the database is rejected alone (its partial writes undone), never the batch. `shopIds`: the
 * calling token's shops (a record of another shop is rejected on `shop_id`); null: every shop.
 */
export async function ingestBatch(q: Queryable, kind: IngestKind, records: unknown[], opts: { shopIds?: number[] | null } = {}): Promise<BatchOutcome> {
  const allowed = opts.shopIds ? new Set(opts.shopIds) : null;
  const validate = validatorOf(kind);
  const results: RecordResult[] = [];
  // the shops the batch names, in one look-up
  const shopIds = [...new Set(records.map((r) => (r as Rec | null)?.shop_id).filter((v): v is number => Number.isInteger(v) && (v as number) > 0 && (v as number) <= 2147483647))];
  const shops = new Set(
    shopIds.length ? (await q.query<{ id: number }>('SELECT id FROM shop WHERE id = ANY($1::int[])', [shopIds])).rows.map((x) => x.id) : [],
  );
  for (let index = 0; index < records.length; index++) {
    const r = records[index];
    const ext = r && typeof r === 'object' && typeof (r as Rec).external_id === 'string' ? ((r as Rec).external_id as string).slice(0, 100) : null;
    const reject = (errors: FieldError[]) => results.push({ index, external_id: ext, status: 'rejected', id: null, errors: oneEach(errors) });
    if (!r || typeof r !== 'object' || Array.isArray(r)) {
      reject([{ field: 'record', message: 'must be an object / 应为对象' }]);
      continue;
    }
    if (!validate(r)) {
      reject(fieldErrors(validate.errors ?? [], 'record'));
      continue;
    }
    const rec = r as Rec;
    if (!shops.has(rec.shop_id as number)) {
      reject([{ field: 'shop_id', message: 'no such shop / 店铺不存在' }]);
      continue;
    }
    // a token limited to shops writes to those only
    if (allowed && !allowed.has(rec.shop_id as number)) {
      reject([{ field: 'shop_id', message: 'this service token may not write to this shop / 该服务令牌无权写入此店铺' }]);
      continue;
    }
    await q.query('SAVEPOINT ingest_record');
    try {
      const w = await kind.write(q, rec, hashOf(rec));
      await q.query('RELEASE SAVEPOINT ingest_record');
      results.push({ index, external_id: ext, status: w.status, id: w.id });
    } catch (err) {
      await q.query('ROLLBACK TO SAVEPOINT ingest_record');
      const code = (err as { code?: unknown }).code;
      if (err instanceof RecordProblem) reject(err.errors);
      // data or integrity exceptions the schema did not foresee: this record only
      else if (typeof code === 'string' && /^2[23]/.test(code)) reject([{ field: 'record', message: `could not be stored (SQLSTATE ${code}) / 无法保存该记录` }]);
      else throw err;
    }
  }
  const count = (st: RecordStatus) => results.filter((x) => x.status === st).length;
  return { results, created: count('created'), updated: count('updated'), unchanged: count('unchanged'), rejected: count('rejected') };
}
