/**
 * The e-mail channel: SMTP through nodemailer. The mail server's name is resolved and checked
 * by the outbound-call policy (server/http/outbound.ts: the same refusals as a webhook address)
 * and nodemailer connects to the address that was checked, with TLS still verified against the
 * name. The Message-ID is the send's idempotency key, the same on every attempt, so a mail sent
 * twice after a crash is one message to the mailbox (and to the test's SMTP server).
 */
import { checkTarget, describeOutboundError } from '../http/outbound.js';
import type { NoticeMessage, SendResult } from './types.js';

export interface SmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  username: string;
  /** decrypted, for this call only; never logged */
  password: string;
  from: string;
}

export function messageId(key: string): string {
  return `<notice-${key}@backoffice-console>`;
}

export function mailText(m: NoticeMessage, publicUrl: string): string {
  const lines = [m.content, ''];
  if (m.jumpLink) lines.push(`Link / 链接: ${m.jumpLink}`, '');
  lines.push(
    `Shop / 店铺: ${m.shopName} (${m.shopId})`,
    `Mark as read / 标记已读: POST ${publicUrl}/api/common/merchant/notification/read {"token": "${m.readToken}"}`,
  );
  return lines.join('\n');
}

const SMTP_ERRORS: Record<string, string> = {
  EAUTH: 'SMTP sign-in refused / SMTP 登录被拒绝',
  ECONNECTION: 'could not connect to the mail server / 无法连接邮件服务器',
  ETIMEDOUT: 'timeout: the mail server did not answer in time / 超时：邮件服务器未及时响应',
  ESOCKET: 'could not connect to the mail server / 无法连接邮件服务器',
  EENVELOPE: 'the mail server refused the sender or the recipient / 邮件服务器拒绝了发件人或收件人',
  EMESSAGE: 'the mail server refused the message / 邮件服务器拒绝了该邮件',
  ETLS: 'TLS failure: the secure connection could not be made / TLS 错误：无法建立安全连接',
};

export async function sendEmail(smtp: SmtpConfig, to: string, key: string, m: NoticeMessage, opts: { timeoutMs: number; publicUrl: string }): Promise<SendResult> {
  if (!smtp.host || !smtp.from) {
    return { ok: false, error: 'no mail server (SMTP) is set up for notices / 未配置通知用的邮件服务器（SMTP）' };
  }
  let address: string;
  try {
    const t = await checkTarget(`http://${smtp.host.includes(':') ? `[${smtp.host}]` : smtp.host}:${smtp.port}/`);
    address = t.addresses[0].address;
  } catch (e) {
    return { ok: false, error: describeOutboundError(e).message };
  }
  // nodemailer loads with the first e-mail sent, not with every server start
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: address,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.username ? { user: smtp.username, pass: smtp.password } : undefined,
    tls: { servername: smtp.host },
    connectionTimeout: opts.timeoutMs,
    greetingTimeout: opts.timeoutMs,
    socketTimeout: opts.timeoutMs,
    logger: false,
    debug: false,
  });
  try {
    const info = await transport.sendMail({
      from: smtp.from,
      to,
      subject: m.title,
      text: mailText(m, opts.publicUrl),
      messageId: messageId(key),
      headers: { 'Idempotency-Key': key, 'X-Notice-Id': String(m.notificationId), 'X-Notice-Read-Token': m.readToken },
    });
    const code = Number(/^(\d{3})/.exec(String(info.response ?? ''))?.[1] ?? 250);
    return { ok: true, status: code };
  } catch (e) {
    const err = e as { code?: string; responseCode?: number };
    const base = (err.code && SMTP_ERRORS[err.code]) || describeOutboundError(e).message;
    return { ok: false, status: err.responseCode, error: err.responseCode ? `SMTP ${err.responseCode}: ${base}` : base };
  } finally {
    transport.close();
  }
}
