import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from './typebox.js';

/**
 * Rows the session viewers read (the lists, the details' messages, mails and utterances, the
 * mail account picker): the server builds those replies from the resource declarations
 * (server/resources/sessions/viewers.ts and its detail hooks); these are the console's types of
 * them, checked against the served reply schemas by tests/api/openapi.test.ts (same keys, same
 * types).
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

/** a message of `GET session/detail` (`messages`) */
export const ChatMessageRow = Type.Object({
  id: Type.Integer(),
  msg_type: Type.Integer(),
  sender: Type.String(),
  content: Type.String(),
  policy_id: Nullable(Type.Integer()),
  /** the reply's trace (ai_trace), when it was traced */
  trace_id: Type.Optional(Nullable(Type.Integer())),
  sent_at: Type.String(),
});

/** a mail of `GET mail-session/detail` (`mails`) */
export const MailRow = Type.Object({
  id: Type.Integer(),
  direction_type: Type.Integer(),
  from_addr: Type.String(),
  to_addr: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  is_read: Type.Integer(),
  is_ai: Type.Integer(),
  has_attachment: Type.Integer(),
  sent_at: Type.String(),
});

/** an utterance of `GET voice-session/detail` (`utterances`) */
export const UtteranceRow = Type.Object({ id: Type.Integer(), speaker: Type.String(), content: Type.String(), offset_ms: Type.Integer() });

/** a row of `GET shop/mail-account/list` (the mail account picker) */
export const MailAccountRow = Type.Object({
  id: Type.Integer(),
  shop_id: Type.Integer(),
  shop_name: Nullable(Type.String()),
  email: Type.String(),
  created_at: Type.String(),
});

/** the console's row types, each with the route and the array of its reply they are checked against */
export const CHECKED_ROWS = [
  { route: 'session/list', array: 'list', row: ChatSessionRow },
  { route: 'mail-session/list', array: 'list', row: MailSessionRow },
  { route: 'voice-session/list', array: 'list', row: VoiceSessionRow },
  { route: 'session/detail', array: 'messages', row: ChatMessageRow },
  { route: 'mail-session/detail', array: 'mails', row: MailRow },
  { route: 'voice-session/detail', array: 'utterances', row: UtteranceRow },
  { route: 'shop/mail-account/list', array: 'list', row: MailAccountRow },
] as const;

export type ChatSession = Static<typeof ChatSessionRow>;
export type MailSession = Static<typeof MailSessionRow>;
export type VoiceSession = Static<typeof VoiceSessionRow>;
export type ChatMessage = Static<typeof ChatMessageRow>;
export type Mail = Static<typeof MailRow>;
export type Utterance = Static<typeof UtteranceRow>;
export type MailAccountOption = Static<typeof MailAccountRow>;
