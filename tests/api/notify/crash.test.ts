// @db both — kill -9 during a delivery batch: recovery on each engine
/**
 * kill -9 in the middle of a delivery batch (issue 24): the server process is killed while its
 * notification.deliver job has sends in flight to a slow webhook receiver and an SMTP server.
 * After the restart every send is delivered, and the count at the receivers proves nothing was
 * lost or delivered twice: de-duplicated by webhook-id / Message-ID (as a Standard Webhooks
 * receiver and a mailbox do), each notice arrived exactly once; raw, an id arrived at most twice,
 * and only for sends in flight at the kill (their lease ran out), with the same idempotency key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../server/db/open.js';
import { openPg } from '../../../server/db/pg.js';
import type { SqlDb } from '../../../server/db/sql-db.js';
import { ApiClient } from '../harness.js';
import { until } from '../jobs/until.js';
import { pgSchemaEnv, spawnServer, type ServerProcess } from '../process.js';
import { smtpReceiver, webhookReceiver } from './receivers.js';

const PASSWORD = 'notify-crash-password';
const SECRET = 'crash-test-signing-secret-0123456789';
const pgUrl = process.env.TEST_DATABASE_URL;
const SHOPS = 40;
const MAILS = 10;

interface Target {
  env: Record<string, string>;
  open(): Promise<SqlDb>;
  cleanup(): Promise<void>;
}

async function pgliteTarget(): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-notify-crash-'));
  const dataDir = path.join(dir, 'data');
  return { env: { DATA_DIR: dataDir, DATABASE_URL: '' }, open: () => openDb({ databaseUrl: '', dataDir }), cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function postgresTarget(): Promise<Target> {
  const pg = await pgSchemaEnv(pgUrl!);
  return { env: pg.env, open: () => openPg(pgUrl!, { schema: pg.schema }), cleanup: () => pg.drop() };
}

async function signIn(url: string): Promise<ApiClient> {
  const c = new ApiClient(url);
  expect((await c.post('user/login', { email: 'admin@example.com', password: PASSWORD })).body.code).toBe(10000);
  return c;
}

async function deliverThroughACrash(t: Target): Promise<void> {
  const hook = await webhookReceiver(SECRET, { slowMs: 150 });
  const smtp = await smtpReceiver('crash@console.test', 'smtp-crash-pass-1234');
  const env = {
    ...t.env,
    ADMIN_PASSWORD: PASSWORD,
    // the key the stored secrets are encrypted with (on PostgreSQL there is no key file without DATA_DIR)
    SECRET_KEY: 'notify-crash-test-secret-key',
    WORKERS: '2',
    OUTBOUND_ALLOW_PRIVATE: '1',
    NOTIFY_LEASE_SECONDS: '3',
    NOTIFY_BATCH: '8',
    NOTIFY_CONCURRENCY: '4',
    NOTIFY_RETRY_BASE_MS: '200',
  };
  let proc: ServerProcess | null = await spawnServer(env);
  try {
    let admin = await signIn(proc.url);
    await admin.ok('POST', 'notification/smtp/save', { host: '127.0.0.1', port: smtp.port, username: 'crash@console.test', password: 'smtp-crash-pass-1234', from_address: 'notices@console.test' });
    for (let i = 0; i < SHOPS; i++) {
      const shop = (await admin.ok('POST', 'shop/create', { name: `Crash shop ${i}`, type: 4 })).id;
      await admin.ok('POST', 'notification/channel/create', { shop_id: shop, kind: 'webhook', url: `${hook.url}/slow`, secret: SECRET });
      if (i < MAILS) await admin.ok('POST', 'notification/channel/create', { shop_id: shop, kind: 'email', email_to: `m${i}@shop.test` });
    }
    const n = await admin.ok('POST', 'notification/add', { title: 'Crash notice', content: 'x', target_types: [4] });
    await admin.ok('POST', 'notification/push', { id: n.id });
    // kill -9 once a few sends have arrived: the batch is mid-way (the receiver holds each for 150 ms)
    await until(async () => hook.hits.length, (k) => k >= 6, 60_000);
    await proc.kill9();
    proc = null;
    const hitsAtKill = hook.hits.length;

    const db = await t.open();
    let inFlight: number;
    try {
      const states = await db.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM notification_send WHERE notification_id = $1 GROUP BY state`, [n.id]);
      const by = Object.fromEntries(states.rows.map((r) => [r.state, r.n]));
      inFlight = by.sending ?? 0;
      // the kill landed in the middle: some sends were on their way, some not yet sent
      expect(inFlight, JSON.stringify(by)).toBeGreaterThan(0);
      expect((by.pending ?? 0) + inFlight, JSON.stringify(by)).toBeGreaterThan(0);
      expect(by.delivered ?? 0).toBeLessThan(SHOPS + MAILS);
    } finally {
      await db.close();
    }

    proc = await spawnServer(env);
    admin = await signIn(proc.url);
    const done = await until(() => admin.ok('GET', 'notification/detail', { id: n.id }), (d) => d.status === 1 && !d.push_active, 120_000);
    expect(done).toMatchObject({ push_quantity: SHOPS, push_delivered_count: SHOPS, push_failed_count: 0 });
    const sends = (await admin.ok('GET', 'notification/send/list', { notification_id: n.id, page_size: 100 })).list as Array<{ state: string; channel: string; idempotency_key: string; id: number }>;
    expect(sends).toHaveLength(SHOPS + MAILS);
    expect(sends.every((s) => s.state === 'delivered')).toBe(true);

    // The guarantee (docs/integrations.md, "Retries and crashes"): at least once on the wire, with
    // one idempotency key per send, so a receiver that de-duplicates as Standard Webhooks asks
    // (by webhook-id) receives each notice exactly once. A sender cannot know whether a request in
    // flight at a kill -9 reached the receiver, so it may go a second time, never a third.
    const hookKeys = new Set(sends.filter((s) => s.channel === 'webhook').map((s) => s.idempotency_key));
    expect(hook.hits.every((h) => h.verified === true)).toBe(true);
    // counted at the emulator, de-duplicated by webhook-id: each notice delivered exactly once, no other id
    expect(hook.processed).toEqual(hookKeys);
    expect(hook.hits.filter((h) => h.first)).toHaveLength(SHOPS);
    // raw attempts: at most 2 per webhook-id, and a second one only for a send in flight at the kill
    expect([...hook.attempts.values()].every((k) => k === 1 || k === 2), JSON.stringify([...hook.attempts])).toBe(true);
    const repeats = hook.hits.length - hookKeys.size;
    expect(repeats).toBe([...hook.attempts.values()].filter((k) => k === 2).length);
    expect(repeats).toBeLessThanOrEqual(inFlight);
    expect(hitsAtKill).toBeLessThan(hook.hits.length);

    // at the SMTP server, as a mailbox keeps it (one message per Message-ID = the send's key):
    // each e-mail exactly once, raw arrivals at most 2 per Message-ID, repeats only of in-flight sends
    const mailKeys = new Set(sends.filter((s) => s.channel === 'email').map((s) => `<notice-${s.idempotency_key}@backoffice-console>`));
    expect(new Set(smtp.byMessageId.keys())).toEqual(mailKeys);
    expect([...smtp.byMessageId.values()].every((k) => k === 1 || k === 2), JSON.stringify([...smtp.byMessageId])).toBe(true);
    expect(smtp.mails.length - mailKeys.size + repeats).toBeLessThanOrEqual(inFlight);

    // the delivery log says what happened to the attempts the kill cut off
    const log = (await admin.ok('GET', 'notification/send-attempt/list', { notification_id: n.id, page_size: 100 })).list as Array<{ outcome: string }>;
    expect(log.filter((r) => r.outcome === 'lost').length).toBe(inFlight);
    expect(log.filter((r) => r.outcome === 'ok').length).toBe(SHOPS + MAILS);
  } finally {
    await proc?.stop();
    await hook.close();
    await smtp.close();
  }
}

describe('kill -9 during a delivery batch', () => {
  const targets: Target[] = [];
  afterAll(async () => {
    for (const t of targets) await t.cleanup();
  });

  it.skipIf(!!pgUrl)('PGlite: every send delivered, none processed twice', async () => {
    const t = await pgliteTarget();
    targets.push(t);
    await deliverThroughACrash(t);
  }, 400_000);

  it.skipIf(!pgUrl)('PostgreSQL: every send delivered, none processed twice', async () => {
    const t = await postgresTarget();
    targets.push(t);
    await deliverThroughACrash(t);
  }, 400_000);
});
