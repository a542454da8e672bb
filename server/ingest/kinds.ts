/**
 * The kinds of record the ingestion API takes (POST /api/ingest/v1/<path>), each with its schema
 * (records.ts) and how it is written (store.ts; a session's messages and a thread's mails by
 * position, children.ts).
 */
import { replaceChildren } from './children.js';
import { CALL_LOG, FEEDBACK, MAIL, ORDER, SESSION, TICKET } from './records.js';
import { RecordProblem, upsert, type IngestKind, type Rec } from './store.js';

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

