/**
 * Local stand-ins for the other side of notice delivery, started by the tests: a webhook receiver
 * (node:http) that verifies signatures the way docs/integrations.md tells merchants to, and an
 * SMTP server (the `smtp-server` package) that keeps every message it accepts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { verifyWebhook } from '../../../server/notify/sign.js';

export interface WebhookHit {
  path: string;
  id: string;
  timestamp: number;
  verified: boolean | string;
  body: Record<string, any>;
  /** the first time this webhook-id arrived (a receiver processes it only then) */
  first: boolean;
}

export interface WebhookReceiver {
  url: string;
  hits: WebhookHit[];
  /** webhook-ids processed (once each): what a de-duplicating receiver acts on */
  processed: Set<string>;
  /** raw requests per webhook-id, verified ones only (a repeat counts here, not in `processed`) */
  attempts: Map<string, number>;
  close(): Promise<void>;
}

/**
 * `/ok`: 200; `/fail`: 500; `/slow`: 200 after `slowMs`. Requests are verified with `secret`;
 * a bad signature gets 401 (counted in `hits` with `verified` naming the reason).
 */
export async function webhookReceiver(secret: string, opts: { slowMs?: number } = {}): Promise<WebhookReceiver> {
  const hits: WebhookHit[] = [];
  const processed = new Set<string>();
  const attempts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const v = verifyWebhook(secret, req.headers as Record<string, string>, raw);
      const id = String(req.headers['webhook-id'] ?? '');
      const first = v.ok && !processed.has(id);
      if (first) processed.add(id);
      if (v.ok) attempts.set(id, (attempts.get(id) ?? 0) + 1);
      let body: Record<string, any> = {};
      try {
        body = JSON.parse(raw);
      } catch {
        /* kept empty */
      }
      hits.push({ path: req.url ?? '', id, timestamp: Number(req.headers['webhook-timestamp']), verified: v.ok ? true : v.reason, body, first });
      const answer = () => {
        if (!v.ok) res.writeHead(401).end('bad signature');
        else if (req.url?.startsWith('/fail')) res.writeHead(500).end('receiver broken');
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      };
      if (req.url?.startsWith('/slow')) setTimeout(answer, opts.slowMs ?? 200);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    processed,
    attempts,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

export interface Mail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  messageId: string;
  user: string | undefined;
}

export interface SmtpReceiver {
  port: number;
  /** every message accepted, repeats included */
  mails: Mail[];
  /** what a mailbox keeps: one message per Message-ID, with how many times it arrived */
  byMessageId: Map<string, number>;
  close(): Promise<void>;
}

const header = (raw: string, name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(raw)?.[1]?.trim() ?? '';

/** An SMTP server on 127.0.0.1 that needs AUTH with `user` / `password` (no TLS: a local test). */
export async function smtpReceiver(user: string, password: string): Promise<SmtpReceiver> {
  const mails: Mail[] = [];
  const byMessageId = new Map<string, number>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === password) cb(null, { user });
      else cb(new Error('535 authentication failed'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const messageId = header(raw, 'Message-ID');
        byMessageId.set(messageId, (byMessageId.get(messageId) ?? 0) + 1);
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: header(raw, 'Subject'),
          messageId,
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, byMessageId, close: () => new Promise<void>((r) => server.close(() => r())) };
}
