import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { ChatMessageRow, MailRow, UtteranceRow } from '../../../src/contract/replies/sessions.js';
import { notFound } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { findRow } from '../engine/list.js';
import { idQuery, rowSchema } from '../engine/schemas.js';
import type { ResourceDef, Row } from '../engine/types.js';
import { SK } from './keys.js';

/** Chat channels a session can come from (spec: "channel" filter; values are ours). */
export const CHAT_CHANNELS = ['web', 'whatsapp', 'messenger', 'instagram', 'email_widget'] as const;
export const VOICE_DIRECTIONS = ['inbound', 'outbound'] as const;

const readOnly = (f: ReturnType<typeof F.str>) => ({ ...f, readOnly: true });

/**
 * A chat session's end, derived at read (no stored row changes): the platform's end event
 * (message type 8, "end conversation") or a system line "Conversation ended" as the transcript's
 * last message ends it, even when the platform never sent `ended_at` (docs/modules/sessions.md).
 */
export const END_MESSAGE_TYPE = 8;
const LAST_MESSAGE = `FROM chat_message m WHERE m.session_id = t.id ORDER BY m.sent_at DESC, m.id DESC LIMIT 1`;
const ENDS_TRANSCRIPT = `(m.msg_type = ${END_MESSAGE_TYPE} OR m.content ILIKE 'conversation ended%')`;
export const DERIVED_END = `(SELECT CASE WHEN ${ENDS_TRANSCRIPT} THEN m.sent_at END ${LAST_MESSAGE})`;
const STATUS_SQL = `CASE WHEN t.ended_at IS NOT NULL OR ${DERIVED_END} IS NOT NULL THEN 'ended' ELSE 'ongoing' END`;
export const CHAT_STATUSES = ['ongoing', 'ended'] as const;

/** Chat sessions: list (shop, time range, channel, keyword) and detail with its messages. */
export const chatSession: ResourceDef = {
  name: 'session',
  auditName: 'chat_session',
  table: 'chat_session',
  keyword: "to_tsvector('simple', t.customer_name || ' ' || t.customer_email || ' ' || t.last_message)",
  keywordIds: ['id'],
  defaultSort: { field: 'started_at', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { ...F.shopId(), readOnly: true },
    shop_name: F.shopName(),
    customer_name: readOnly(F.str(100)),
    customer_email: readOnly(F.str(200)),
    channel: { ...F.enumOf(CHAT_CHANNELS), readOnly: true },
    country_code: readOnly(F.str(2)),
    message_count: { schema: { type: 'integer' }, readOnly: true },
    last_message: readOnly(F.str(500)),
    started_at: { ...F.dateTime(), readOnly: true, filter: 'range', sort: true },
    ended_at: { ...F.dateTime({ virtual: true }), nullable: true, readOnly: true, select: `COALESCE(t.ended_at, ${DERIVED_END})` },
    status: F.enumOf(CHAT_STATUSES, {
      virtual: true,
      readOnly: true,
      select: STATUS_SQL,
      filterWhere: `(${STATUS_SQL}) = $value`,
    }),
  },
  operations: { list: { permission: SK.chat } },
};

export const mailSession: ResourceDef = {
  name: 'mail-session',
  auditName: 'mail_session',
  table: 'mail_session',
  keyword: "to_tsvector('simple', t.subject || ' ' || t.customer_email)",
  keywordIds: ['id'],
  defaultSort: { field: 'started_at', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { ...F.shopId(), readOnly: true },
    shop_name: F.shopName(),
    mail_account_id: F.mailAccountFilter(),
    subject: readOnly(F.str(300)),
    customer_email: readOnly(F.str(200)),
    mail_count: { schema: { type: 'integer' }, readOnly: true },
    started_at: { ...F.dateTime(), readOnly: true, filter: 'range', sort: true },
    last_at: { ...F.dateTime(), readOnly: true },
  },
  operations: { list: { permission: SK.mail } },
};

export const voiceSession: ResourceDef = {
  name: 'voice-session',
  auditName: 'voice_session',
  table: 'voice_session',
  keyword: "to_tsvector('simple', t.caller || ' ' || t.callee || ' ' || t.summary)",
  keywordIds: ['id'],
  defaultSort: { field: 'started_at', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { ...F.shopId(), readOnly: true },
    shop_name: F.shopName(),
    caller: readOnly(F.str(40)),
    callee: readOnly(F.str(40)),
    direction: { ...F.enumOf(VOICE_DIRECTIONS), readOnly: true },
    duration_sec: { schema: { type: 'integer' }, readOnly: true },
    result: { ...F.enumOf([1, 2, 3, 4]), readOnly: true },
    summary: readOnly(F.str(500)),
    started_at: { ...F.dateTime(), readOnly: true, filter: 'range', sort: true },
  },
  operations: { list: { permission: SK.voice } },
};

/**
 * `<name>/detail?id=`: the session row plus its entries (messages, mails, utterances) in order;
 * the entries are the console's row types (src/contract/replies/sessions.ts), the session row
 * the resource's own (built from its declaration).
 */
function detailWith<K extends string, I extends TSchema>(def: ResourceDef, key: K, itemSql: string, item: I): RouteDef {
  const base = rowSchema(def);
  return route({
    method: 'GET',
    path: `${def.name}/detail`,
    access: { permission: def.operations.list!.permission },
    summary: `One ${def.name} with its ${key}`,
    query: idQuery,
    reply: Type.Unsafe<Row & Record<K, Array<Static<I>>>>({ ...base, properties: { ...(base.properties as object), [key]: Type.Array(item) } }),
    handler: async (ctx) => {
      const { id } = ctx.query;
      const row = await findRow(def, ctx.db, id);
      if (!row) throw notFound(def.name);
      const items = await ctx.db.query<Static<I>>(itemSql, [id]);
      return { ...row, ...({ [key]: items.rows } as Record<K, Array<Static<I>>>) };
    },
  });
}

chatSession.actions = [
  detailWith(
    chatSession,
    'messages',
    `SELECT id, msg_type, sender, content, policy_id, (SELECT x.id::int FROM ai_trace x WHERE x.id = trace_id) AS trace_id,
            to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS sent_at
       FROM chat_message WHERE session_id = $1 ORDER BY sent_at, id LIMIT 2000`,
    ChatMessageRow,
  ),
];
mailSession.actions = [
  detailWith(
    mailSession,
    'mails',
    `SELECT id, direction_type, from_addr, to_addr, subject, body, is_read, is_ai, has_attachment,
            to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS sent_at
       FROM mail_message WHERE session_id = $1 ORDER BY sent_at, id LIMIT 500`,
    MailRow,
  ),
];
voiceSession.actions = [
  detailWith(
    voiceSession,
    'utterances',
    `SELECT id, speaker, content, offset_ms FROM voice_utterance WHERE session_id = $1 ORDER BY offset_ms, id LIMIT 5000`,
    UtteranceRow,
  ),
];
