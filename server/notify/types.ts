/** What one attempt of a send came to: a 2xx / 250 reply, or a short classified reason ("english / 中文"). */
export interface SendResult {
  ok: boolean;
  /** the HTTP status (webhook) or the SMTP reply code (e-mail) when the other side answered */
  status?: number;
  error?: string;
}

/** The notice as its receivers get it (webhook payload `data`, e-mail text). */
export interface NoticeMessage {
  notificationId: number;
  shopId: number;
  shopName: string;
  title: string;
  content: string;
  jumpLink: string;
  readToken: string;
}
