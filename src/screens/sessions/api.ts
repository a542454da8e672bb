/** Types and calls of the session viewers (through the console's RuntimeEnv http port, never axios). */
import { MAIL_ACCOUNT_PAGE_SIZE, type Page } from '../../contract/codes.js';
import type { ShopOption } from '../../contract/replies/shops.js';
import type { HttpPort } from '../../runtime/env.js';

/** a page of a list reply (src/contract/codes.ts, the shape the server's pageReply declares) */
export type { Page };

export interface ChatSession {
  id: number;
  shop_id: number;
  shop_name: string | null;
  customer_name: string;
  customer_email: string;
  channel: string;
  country_code: string;
  message_count: number;
  last_message: string;
  started_at: string;
  /** the stored end, else the time of a transcript-ending last message (derived on the server) */
  ended_at: string | null;
  /** derived on the server from ended_at and the transcript's last message */
  status: 'ongoing' | 'ended';
}
export interface ChatMessage {
  id: number;
  msg_type: number;
  sender: string;
  content: string;
  policy_id: number | null;
  /** the reply's trace (ai_trace), when it was traced */
  trace_id?: number | null;
  sent_at: string;
}
export interface MailSession {
  id: number;
  shop_id: number;
  shop_name: string | null;
  subject: string;
  customer_email: string;
  mail_count: number;
  started_at: string;
  last_at: string;
}
export interface Mail {
  id: number;
  direction_type: number;
  from_addr: string;
  to_addr: string;
  subject: string;
  body: string;
  is_read: number;
  is_ai: number;
  has_attachment: number;
  sent_at: string;
}
export interface VoiceSession {
  id: number;
  shop_id: number;
  shop_name: string | null;
  caller: string;
  callee: string;
  direction: string;
  duration_sec: number;
  result: number;
  summary: string;
  started_at: string;
}
export interface Utterance {
  id: number;
  speaker: string;
  content: string;
  offset_ms: number;
}

/** a shop of the pickers (declared once: src/contract/replies/shops.ts) */
export type { ShopOption };

/** Filters shared by the three viewers; `extra` is the channel (chat) or direction (voice). */
export interface SessionFilters {
  shop_id?: number;
  /** mail threads of this mail account's shop (mail sessions only) */
  mail_account_id?: number;
  from?: string;
  to?: string;
  extra?: string;
  keyword?: string;
}

export function listParams(f: SessionFilters, extraKey: string | null, page: number, pageSize: number): Record<string, unknown> {
  const p: Record<string, unknown> = { page, page_size: pageSize };
  if (f.shop_id) p.shop_id = f.shop_id;
  if (f.mail_account_id) p.mail_account_id = f.mail_account_id;
  if (f.from) p.started_at_from = f.from;
  if (f.to) p.started_at_to = f.to;
  if (f.extra && extraKey) p[extraKey] = f.extra;
  if (f.keyword?.trim()) p.keyword = f.keyword.trim();
  return p;
}

export const shopOptions = (http: HttpPort) => http.get<ShopOption[]>('session-area/shop-options', { limit: 500 }, { silent: true });

export interface MailAccountOption {
  id: number;
  shop_id: number;
  shop_name: string | null;
  email: string;
}

/** the shops' mail accounts (spec: `GET shop/mail-account/list` with page_size 1000) */
export const mailAccountOptions = (http: HttpPort) =>
  http.get<Page<MailAccountOption>>('shop/mail-account/list', { page_size: MAIL_ACCOUNT_PAGE_SIZE }, { silent: true }).then((p) => p.list);
