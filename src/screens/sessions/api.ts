/** Types and calls of the session viewers (through the console's RuntimeEnv http port, never a request of their own). */
import { MAIL_ACCOUNT_PAGE_SIZE, type Page } from '../../contract/codes.js';
import type { ShopOption } from '../../contract/replies/shops.js';
import type { ChatMessage, ChatSession, Mail, MailAccountOption, MailSession, Utterance, VoiceSession } from '../../contract/replies/sessions.js';
import type { HttpPort } from '../../runtime/env.js';

/** a page of a list reply (src/contract/codes.ts, the shape the server's pageReply declares) */
export type { Page };

/** a shop of the pickers (declared once: src/contract/replies/shops.ts) */
export type { ShopOption };
/** the viewers' rows (src/contract/replies/sessions.ts, checked against the served replies) */
export type { ChatMessage, ChatSession, Mail, MailAccountOption, MailSession, Utterance, VoiceSession };

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


/** the shops' mail accounts (spec: `GET shop/mail-account/list` with page_size 1000) */
export const mailAccountOptions = (http: HttpPort) =>
  http.get<Page<MailAccountOption>>('shop/mail-account/list', { page_size: MAIL_ACCOUNT_PAGE_SIZE }, { silent: true }).then((p) => p.list);
