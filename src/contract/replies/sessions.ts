import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from './typebox.js';

/**
 * Rows of the session viewers' lists (`GET session/list`, `mail-session/list`,
 * `voice-session/list`): the server builds those replies from the resource declarations
 * (server/resources/sessions/viewers.ts); these are the console's types of them, checked against
 * the served reply schemas by tests/api/openapi.test.ts (same keys, same types).
 */
const session = { id: Type.Integer(), shop_id: Type.Integer(), shop_name: Nullable(Type.String()) };

export const ChatSessionRow = Type.Object({
  ...session,
  customer_name: Type.String(),
  customer_email: Type.String(),
  channel: Type.String(),
  country_code: Type.String(),
  message_count: Type.Integer(),
  last_message: Type.String(),
  started_at: Type.String(),
  /** the stored end, else the time of a transcript-ending last message (derived on the server) */
  ended_at: Nullable(Type.String()),
  /** derived on the server from ended_at and the transcript's last message */
  status: StringEnum(['ongoing', 'ended']),
});

export const MailSessionRow = Type.Object({
  ...session,
  subject: Type.String(),
  customer_email: Type.String(),
  mail_count: Type.Integer(),
  started_at: Type.String(),
  last_at: Type.String(),
});

export const VoiceSessionRow = Type.Object({
  ...session,
  caller: Type.String(),
  callee: Type.String(),
  direction: Type.String(),
  duration_sec: Type.Integer(),
  result: Type.Integer(),
  summary: Type.String(),
  started_at: Type.String(),
});

/** the console's list types and the routes whose replies they are checked against */
export const SESSION_LIST_ROWS = { 'session/list': ChatSessionRow, 'mail-session/list': MailSessionRow, 'voice-session/list': VoiceSessionRow };

export type ChatSession = Static<typeof ChatSessionRow>;
export type MailSession = Static<typeof MailSessionRow>;
export type VoiceSession = Static<typeof VoiceSessionRow>;
