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
import type { JsonSchema } from '../http/route.js';
import { isCalendarDate } from '../plugins/calendar.js';
import { fieldErrors } from '../plugins/errors.js';
import { replaceChildren } from './children.js';
import { CALL_LOG, FEEDBACK, MAIL, ORDER, SESSION, TICKET } from './records.js';

export type RecordStatus = 'created' | 'updated' | 'unchanged' | 'rejected';

export interface RecordResult {
  index: number;
  external_id: string | null;
  status: RecordStatus;
  /** the row's id in the console (null when rejected) */
  id: number | null;
  errors?: FieldError[];
}

type Rec = Record<string, unknown>;
type Written = { status: Exclude<RecordStatus, 'rejected'>; id: number };
/** a record the schema passed but that cannot be stored as it is (e.g. a session id it names does not exist) */
class RecordProblem extends Error {
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

/**
 * Finds the row of (shop, external id) and creates, overwrites or leaves it. `cols` are the
 * columns the record sets (the same on insert and update). A concurrent batch inserting the same
 * id at the same moment is caught by the unique index and read back as an update.
 */
async function upsert(q: Queryable, table: string, shopId: number, externalId: string, hash: string, cols: Rec): Promise<Written & { changed: boolean }> {
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

const s = (v: unknown, dflt = ''): string => (typeof v === 'string' ? v : dflt);
const n = (v: unknown, dflt = 0): number => (typeof v === 'number' ? v : dflt);
const RAW_MAX = 64 * 1024;

export const KINDS: IngestKind[] = [
  {
    path: 'orders',
    scope: 'orders',
    table: 'shop_order',
    schema: ORDER,
    summary: 'Orders of a shop (table shop_order), by the platform order id',
    async write(q, r, hash) {
      const raw = JSON.stringify(r.raw ?? {});
      if (raw.length > RAW_MAX) throw new RecordProblem([{ field: 'raw', message: `is larger than ${RAW_MAX} bytes as JSON / 超过 ${RAW_MAX} 字节` }]);
      return upsert(q, 'shop_order', n(r.shop_id), s(r.external_id), hash, {
        name: r.name,
        email: r.email,
        customer_name: s(r.customer_name),
        amount: r.amount,
        currency: s(r.currency, 'USD'),
        financial_status: r.financial_status,
        fulfillment_status: r.fulfillment_status,
        tracking_company: r.tracking_company ?? null,
        tracking_number: r.tracking_number ?? null,
        created_at: r.created_at,
        raw,
      });
    },
  },
  {
    path: 'sessions',
    scope: 'sessions',
    table: 'chat_session',
    schema: SESSION,
    summary: 'Chat sessions with all their messages (chat_session, chat_message; message types 1–17), by the platform session id',
    async write(q, r, hash) {
      const msgs = (r.messages as Rec[]) ?? [];
      const last = msgs.length ? s(msgs[msgs.length - 1].content) : '';
      const w = await upsert(q, 'chat_session', n(r.shop_id), s(r.external_id), hash, {
        customer_name: s(r.customer_name),
        customer_email: s(r.customer_email),
        channel: s(r.channel, 'web'),
        country_code: s(r.country_code, 'US'),
        message_count: msgs.length,
        last_message: [...last].slice(0, 500).join(''),
        started_at: r.started_at,
        ended_at: r.ended_at ?? null,
      });
      if (w.changed) {
        await replaceChildren(q, w.id, {
          table: 'chat_message',
          parentColumn: 'session_id',
          columns: [
            { name: 'msg_type', type: 'smallint' },
            { name: 'sender', type: 'text' },
            { name: 'content', type: 'text' },
            { name: 'sent_at', type: 'timestamptz' },
          ],
          values: [msgs.map((m) => m.msg_type), msgs.map((m) => s(m.sender)), msgs.map((m) => s(m.content)), msgs.map((m) => m.sent_at)],
          references: [
            { table: 'session_mark', column: 'message_id' },
            { table: 'feedback', column: 'message_id' },
          ],
        });
      }
      return w;
    },
  },
  {
    path: 'mails',
    scope: 'mails',
    table: 'mail_session',
    schema: MAIL,
    summary: 'Mail threads with all their mails (mail_session, mail_message; direction types 1–6), by the platform thread id',
    async write(q, r, hash) {
      const mails = (r.mails as Rec[]) ?? [];
      const times = mails.map((m) => new Date(s(m.sent_at)).getTime());
      const w = await upsert(q, 'mail_session', n(r.shop_id), s(r.external_id), hash, {
        subject: s(r.subject) || s(mails[0]?.subject),
        customer_email: s(r.customer_email),
        mail_count: mails.length,
        started_at: new Date(Math.min(...times)).toISOString(),
        last_at: new Date(Math.max(...times)).toISOString(),
      });
      if (w.changed) {
        await replaceChildren(q, w.id, {
          table: 'mail_message',
          parentColumn: 'session_id',
          columns: [
            { name: 'direction_type', type: 'smallint' },
            { name: 'from_addr', type: 'text' },
            { name: 'to_addr', type: 'text' },
            { name: 'subject', type: 'text' },
            { name: 'body', type: 'text' },
            { name: 'is_read', type: 'smallint' },
            { name: 'is_ai', type: 'smallint' },
            { name: 'has_attachment', type: 'smallint' },
            { name: 'sent_at', type: 'timestamptz' },
          ],
          values: [
            mails.map((m) => m.direction_type),
            mails.map((m) => s(m.from_addr)),
            mails.map((m) => s(m.to_addr)),
            mails.map((m) => s(m.subject)),
            mails.map((m) => s(m.body)),
            mails.map((m) => n(m.is_read)),
            mails.map((m) => n(m.is_ai)),
            mails.map((m) => n(m.has_attachment)),
            mails.map((m) => m.sent_at),
          ],
          references: [],
        });
      }
      return w;
    },
  },
  {
    path: 'feedback',
    scope: 'feedback',
    table: 'feedback',
    schema: FEEDBACK,
    summary: 'Feedback on answers (table feedback), by the platform feedback id; may name an ingested chat session',
    async write(q, r, hash) {
      let sessionId: number | null = null;
      if (typeof r.session_external_id === 'string') {
        const found = await q.query<{ id: number }>('SELECT id FROM chat_session WHERE shop_id = $1 AND external_id = $2', [r.shop_id, r.session_external_id]);
        if (!found.rows[0]) throw new RecordProblem([{ field: 'session_external_id', message: 'no ingested session of this shop has this id / 该店铺没有此 ID 的已导入会话' }]);
        sessionId = found.rows[0].id;
      }
      return upsert(q, 'feedback', n(r.shop_id), s(r.external_id), hash, {
        session_id: sessionId,
        question_type: s(r.question_type),
        description: r.description,
        scope: s(r.scope),
        platform: s(r.platform),
        country_code: s(r.country_code),
        seat: s(r.seat),
        email: s(r.email),
        feedback_at: r.feedback_at ?? new Date().toISOString(),
        status: s(r.status, 'pending'),
        image: s(r.image),
        updated_at: new Date().toISOString(),
      });
    },
  },
  {
    path: 'tickets',
    scope: 'tickets',
    table: 'learn_material',
    schema: TICKET,
    summary: 'Support tickets, stored as learning materials (learn_material, source type 3 "ticket", status pending), by the platform ticket id',
    async write(q, r, hash) {
      return upsert(q, 'learn_material', n(r.shop_id), s(r.external_id), hash, {
        channel: s(r.channel, 'email'),
        source_type: 3,
        subject: r.subject,
        question: r.question,
        answer: s(r.answer),
        ...(r.created_at ? { created_at: r.created_at } : {}),
        updated_at: new Date().toISOString(),
      });
    },
  },
  {
    path: 'call-logs',
    scope: 'call_logs',
    table: 'call_log',
    schema: CALL_LOG,
    summary: 'Call records of the voice side (table call_log, no call task), by the platform call id',
    async write(q, r, hash) {
      return upsert(q, 'call_log', n(r.shop_id), s(r.external_id), hash, {
        caller_number: s(r.caller_number),
        callee_number: r.callee_number,
        customer_name: s(r.customer_name),
        duration_seconds: n(r.duration_seconds),
        result: r.result ?? null,
        recording_url: s(r.recording_url),
        transcript: JSON.stringify(((r.transcript as Rec[]) ?? []).map((t) => ({ role: t.role, content: t.content, offset_ms: n(t.offset_ms) }))),
        called_at: r.called_at,
        ended_at: r.ended_at ?? null,
        status: 'ended',
        dialer: 'ingest',
      });
    },
  },
];

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
