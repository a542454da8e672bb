/**
 * The records the customer-service platform pushes through the ingestion API, one JSON Schema
 * per kind. A batch is checked record by record with these (server/ingest/ingest.ts), so one bad
 * record is rejected with its fields named while the others land. Bounds follow the columns they
 * are stored in (server/db/migrations), so a record that passes never meets a database error.
 */
import type { JsonSchema } from '../http/route.js';
import { CHANNELS, FEEDBACK_STATUS, FINANCIAL_STATUS, FULFILLMENT_STATUS, MESSAGE_TYPES, taggedValues } from '../resources/enums.js';

const INT4_MAX = 2147483647;

/** printable: no control characters (NUL is refused for the whole request before this) */
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';
const str = (maxLength: number, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', maxLength, ...extra });
const line = (maxLength: number): JsonSchema => str(maxLength, { pattern: NO_CONTROL });
/** a real moment: `2026-02-30` or `24:00` is refused (server/plugins/calendar.ts) */
const when: JsonSchema = { type: 'string', format: 'calendar-date', maxLength: 40 };
const flag: JsonSchema = { type: 'integer', enum: [0, 1] };
const email: JsonSchema = { type: 'string', maxLength: 200, format: 'email' };
const emailOrEmpty: JsonSchema = { type: 'string', maxLength: 200, pattern: '^$|^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', description: 'an email address or empty' };
/** a real moment or null */
const whenOrNull: JsonSchema = { type: ['string', 'null'], format: 'calendar-date', maxLength: 40 };

const common = {
  external_id: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f]+$', description: "the platform's id of the record, unique per shop and kind" },
  shop_id: { type: 'integer', minimum: 1, maximum: INT4_MAX, description: 'the shop (id of the console)' },
};

const record = (required: string[], properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: ['external_id', 'shop_id', ...required],
  properties: { ...common, ...properties },
});

export const ORDER = record(['name', 'email', 'amount', 'financial_status', 'fulfillment_status', 'created_at'], {
  name: line(40),
  email,
  customer_name: line(100),
  amount: { type: 'number', minimum: 0, maximum: 9999999999.99 },
  currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  financial_status: { type: 'string', enum: [...FINANCIAL_STATUS] },
  fulfillment_status: { type: 'string', enum: [...FULFILLMENT_STATUS] },
  tracking_company: line(60),
  tracking_number: line(60),
  created_at: when,
  raw: { type: 'object', description: 'the platform order as it sent it (kept as is, at most 64 KiB)' },
});

/** the values of the message_type enum (schemas/enums/message_type.json) */
export { MESSAGE_TYPES };

export const SESSION = record(['started_at', 'messages'], {
  customer_name: line(100),
  customer_email: emailOrEmpty,
  channel: line(20),
  country_code: { type: 'string', pattern: '^[A-Z]{2}$' },
  started_at: when,
  ended_at: whenOrNull,
  messages: {
    type: 'array',
    maxItems: 2000,
    description: 'the whole conversation, in order: it replaces the stored messages when the session changed',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['msg_type', 'sent_at'],
      properties: {
        msg_type: { type: 'integer', enum: [...MESSAGE_TYPES], description: 'message_type enum, 1–17' },
        sender: line(100),
        content: str(10_000),
        sent_at: when,
      },
    },
  },
});

/** mail_direction_type: 1 received, 2 normal sent, 3 live chat sent, 4 ticket handling sent, 5 subscription or other, 6 forwarded */
export const MAIL_DIRECTIONS = [1, 2, 3, 4, 5, 6];

export const MAIL = record(['mails'], {
  subject: line(300),
  customer_email: emailOrEmpty,
  mails: {
    type: 'array',
    minItems: 1,
    maxItems: 500,
    description: 'the whole thread, in order: it replaces the stored mails when the thread changed',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['direction_type', 'sent_at'],
      properties: {
        direction_type: { type: 'integer', enum: MAIL_DIRECTIONS, description: 'mail_direction_type enum, 1–6' },
        from_addr: line(200),
        to_addr: line(200),
        subject: line(300),
        body: str(100_000),
        is_read: flag,
        is_ai: flag,
        has_attachment: flag,
        sent_at: when,
      },
    },
  },
});

/** the values of the feedback_status enum (schemas/enums/feedback_status.json) */
export { FEEDBACK_STATUS };

export const FEEDBACK = record(['description'], {
  session_external_id: { ...common.external_id, description: 'external_id of an ingested chat session of the same shop' },
  question_type: line(50),
  description: str(10_000, { minLength: 1 }),
  scope: line(50),
  platform: line(50),
  country_code: { type: 'string', pattern: '^([A-Z]{2})?$' },
  seat: line(100),
  email: emailOrEmpty,
  feedback_at: when,
  status: { type: 'string', enum: [...FEEDBACK_STATUS] },
  image: line(500),
});

export const TICKET = record(['subject', 'question'], {
  channel: { type: 'string', enum: [...CHANNELS] },
  subject: str(300, { minLength: 1, pattern: NO_CONTROL }),
  question: str(20_000, { minLength: 1 }),
  answer: str(20_000),
  created_at: when,
});

/** the call results of placed calls (schemas/enums/call_result.json, tag "placed": a dry run is not ingested) */
export const CALL_RESULTS = taggedValues('call_result', 'placed').map(Number);

export const CALL_LOG = record(['callee_number', 'called_at'], {
  caller_number: line(32),
  callee_number: str(32, { minLength: 1, pattern: NO_CONTROL }),
  customer_name: line(100),
  duration_seconds: { type: 'integer', minimum: 0, maximum: 86_400 * 7 },
  result: { type: ['integer', 'null'], enum: [...CALL_RESULTS, null], description: 'a placed call\'s call_result (enum file, tag "placed"), or null (unknown)' },
  recording_url: { type: 'string', maxLength: 500, pattern: '^(https?://\\S+)?$' },
  transcript: {
    type: 'array',
    maxItems: 2000,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['role', 'content'],
      properties: { role: line(20), content: str(10_000), offset_ms: { type: 'integer', minimum: 0, maximum: INT4_MAX } },
    },
  },
  called_at: when,
  ended_at: whenOrNull,
});
