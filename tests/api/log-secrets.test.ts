// @db once
/**
 * No password, session token, cookie or API key in any log line or audit row (issue 12).
 *
 * The real server process at log level `info` (every request logged), its whole output
 * captured; then a full API run: every route of the route table once as the super admin, plus
 * the calls that carry secrets — sign-in (right and wrong password, and a malformed body holding
 * one), account create and password reset, a password change, a model server with an API key,
 * its connection test against a stand-in that answers 401 quoting the key it got back, calls with
 * the token in `Authorization` and cookies, sign-out. The output and every audit row are then
 * searched for each secret (as sent, and URL-encoded).
 */
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../server/routes/index.js';
import { routeUrl } from '../../server/http/register.js';
import { openDb } from '../../server/db/open.js';
import { openPg } from '../../server/db/pg.js';
import type { SqlDb } from '../../server/db/sql-db.js';
import { ApiClient } from './harness.js';
import { pgSchemaEnv, spawnServer, type ServerProcess } from './process.js';
import { example } from './fuzz/arbitraries.js';

const secret = (label: string) => `${label}-${randomBytes(9).toString('base64url')}`;
const ADMIN_PASSWORD = secret('AdminPw');
const WRONG_PASSWORD = secret('WrongPw');
const NEW_ACCOUNT_PASSWORD = secret('NewAccPw');
const RESET_PASSWORD = secret('ResetPw');
const CHANGED_PASSWORD = secret('ChangedPw');
const MALFORMED_PASSWORD = secret('MalformedPw');
const API_KEY_1 = `sk-${randomBytes(24).toString('hex')}`;
const API_KEY_2 = `sk-${randomBytes(24).toString('hex')}`;
const SHOPIFY_TOKEN = `shpat_${randomBytes(16).toString('hex')}`;
const SHOPIFY_SECRET = `shpss_${randomBytes(16).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const SMTP_PASSWORD = `smtp-${randomBytes(12).toString('hex')}`;

const pgUrl = process.env.TEST_DATABASE_URL;
let proc: ServerProcess;
let dir: string;
let pg: Awaited<ReturnType<typeof pgSchemaEnv>> | null = null;
let upstream: http.Server;
let upstreamUrl = '';
let upstreamSawKey = '';
const secrets: Record<string, string> = {};
let output = '';
let auditText = '';
let hashes: string[] = [];

beforeAll(async () => {
  // a model server that refuses the key and quotes it back (as some real APIs do in their errors)
  upstream = http.createServer((req, res) => {
    upstreamSawKey = String(req.headers.authorization ?? '');
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${upstreamSawKey}`, type: 'invalid_request_error' } }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/v1`;

  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-logsecrets-'));
  const env: Record<string, string> = { ADMIN_PASSWORD, LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0', WORKERS: '1', DATA_DIR: path.join(dir, 'data'), SECRET_KEY: randomBytes(32).toString('base64'),
    // the stand-in upstream is on 127.0.0.1: a private target the outbound policy refuses by default
    OUTBOUND_ALLOW_PRIVATE: '1',
    // a connected Shopify shop's sync calls the same stand-in, which refuses it (issue 24)
    SHOPIFY_ADMIN_BASE_URL: upstreamUrl.replace(/\/v1$/, ''),
  };
  if (pgUrl) {
    pg = await pgSchemaEnv(pgUrl);
    Object.assign(env, pg.env);
  }
  proc = await spawnServer(env);
}, 180_000);

afterAll(async () => {
  await proc?.stop().catch(() => undefined);
  await pg?.drop();
  upstream?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const tokensOf = (c: ApiClient) => [...c.cookies.values()];

describe('no secret in logs or audit rows', () => {
  it('runs every route and the calls that carry secrets with the logs captured', async () => {
    const anon = new ApiClient(proc.url);
    // a wrong password, and a malformed body holding a password (a parse error must not echo it)
    expect((await anon.post('user/login', { email: 'admin@example.com', password: WRONG_PASSWORD })).body.code).toBe(40001);
    const bad = await anon.request('POST', 'user/login', { body: `{"email":"admin@example.com","password":"${MALFORMED_PASSWORD}"`, headers: { 'content-type': 'application/json' } });
    expect(bad.body.code).toBe(40001);

    const admin = new ApiClient(proc.url);
    expect((await admin.post('user/login', { email: 'admin@example.com', password: ADMIN_PASSWORD })).body.code).toBe(10000);
    tokensOf(admin).forEach((t, i) => (secrets[`admin session cookie ${i}`] = t));

    // an account with a password, its reset, its own password change
    const email = `secrets-${randomBytes(3).toString('hex')}@example.com`;
    const created = await admin.post('account/create', { email, name: 'Secrets', password: NEW_ACCOUNT_PASSWORD, role_ids: [] });
    expect(created.body.code, created.body.msg).toBe(10000);
    const id = created.body.data.id;
    expect((await admin.post('account/reset-password', { id, password: RESET_PASSWORD })).body.code).toBe(10000);
    const user = new ApiClient(proc.url);
    expect((await user.post('user/login', { email, password: RESET_PASSWORD })).body.code).toBe(10000);
    tokensOf(user).forEach((t, i) => (secrets[`user session cookie ${i}`] = t));
    const changed = await user.post('user/update-pwd', { old_password: RESET_PASSWORD, new_password: CHANGED_PASSWORD });
    expect(changed.body.code, changed.body.msg).toBe(10000);

    // a model server with an API key, a new key, and a connection test the stand-in refuses
    const server = await admin.post('config/model-server/create', { name: 'secrets', endpoint: upstreamUrl, model: 'gpt-test', api_key: API_KEY_1 });
    expect(server.body.code, server.body.msg).toBe(10000);
    expect((await admin.post('config/model-server/update', { id: server.body.data.id, api_key: API_KEY_2 })).body.code).toBe(10000);
    const tested = await admin.request('POST', 'config/model-server/test', { body: { id: server.body.data.id } });
    expect(tested.status).toBeLessThan(500);
    expect(upstreamSawKey).toContain(API_KEY_2);

    // a Shopify shop connected with its access token and client secret, and a sync the stand-in refuses (issue 24)
    const shop = await admin.post('shop/create', { name: 'Secrets shop', type: 1 });
    expect(shop.body.code, shop.body.msg).toBe(10000);
    const conn = await admin.post('shop/connection/save', { shop_id: shop.body.data.id, shop_domain: 'secrets-shop.myshopify.com', access_token: SHOPIFY_TOKEN, client_secret: SHOPIFY_SECRET });
    expect(conn.body.code, conn.body.msg).toBe(10000);
    const sync = await admin.post('shop/sync', { shop_id: shop.body.data.id, scope: 'products' });
    expect(sync.body.code, sync.body.msg).toBe(10000);
    // wait for the sync's end (the refusal is logged by the job engine): a state, not a time
    let syncState = '';
    for (let i = 0; i < 600 && syncState !== 'failed'; i++) {
      syncState = (await admin.request('GET', 'shop-sync/detail', { query: { id: sync.body.data.job_id } })).body.data?.state ?? '';
      if (syncState !== 'failed') await new Promise((r) => setTimeout(r, 100));
    }
    expect(syncState).toBe('failed');

    // a notice delivered to a webhook signed with its secret (the stand-in refuses it) and an e-mail
    // through an SMTP server that is not there, with its password (issue 24)
    const smtp = await admin.post('notification/smtp/save', { host: '127.0.0.1', port: 9, username: 'u', password: SMTP_PASSWORD, from_address: 'n@example.com' });
    expect(smtp.body.code, smtp.body.msg).toBe(10000);
    for (const ch of [{ kind: 'webhook', url: upstreamUrl, secret: WEBHOOK_SECRET }, { kind: 'email', email_to: 'm@example.com' }]) {
      const c = await admin.post('notification/channel/create', { shop_id: shop.body.data.id, ...ch });
      expect(c.body.code, c.body.msg).toBe(10000);
    }
    const notice = await admin.post('notification/add', { title: 'Secrets notice', content: 'x', target_types: [1] });
    expect((await admin.post('notification/push', { id: notice.body.data.id })).body.code).toBe(10000);
    let tried = 0;
    for (let i = 0; i < 600 && tried < 2; i++) {
      const log = (await admin.request('GET', 'notification/send-attempt/list', { query: { notification_id: notice.body.data.id } })).body.data?.list ?? [];
      tried = log.filter((a: { outcome: string }) => a.outcome === 'error').length;
      if (tried < 2) await new Promise((r) => setTimeout(r, 100));
    }
    expect(tried).toBe(2);

    // the token in Authorization and a cookie header on a call
    expect(
      (await admin.request('GET', 'User/Get', { headers: { authorization: `Bearer ${admin.token}` } })).body.code,
    ).toBe(10000);

    // every route once (bodies that pass validation, ids no row has), sign-out last
    const routes = (await allRoutes()).filter((r) => r.path !== 'user/logout');
    for (const r of routes) {
      const p = r.base && r.base !== 'admin' ? routeUrl(r) : r.path;
      const res =
        r.method === 'GET'
          ? await admin.request('GET', p, { query: example(r.query) as Record<string, unknown> })
          : await admin.request('POST', p, { body: example(r.body) ?? {} });
      expect(res.status, `${r.method} ${r.path}`).toBeLessThan(500);
    }
    expect((await admin.post('user/logout')).body.code).toBe(10000);
    expect((await user.post('user/logout')).body.code).toBe(10000);

    Object.assign(secrets, {
      'admin password': ADMIN_PASSWORD,
      'wrong password': WRONG_PASSWORD,
      'password in a malformed body': MALFORMED_PASSWORD,
      'new account password': NEW_ACCOUNT_PASSWORD,
      'reset password': RESET_PASSWORD,
      'changed password': CHANGED_PASSWORD,
      'API key (create)': API_KEY_1,
      'API key (update)': API_KEY_2,
      'Shopify access token': SHOPIFY_TOKEN,
      'Shopify client secret': SHOPIFY_SECRET,
      'webhook signing secret': WEBHOOK_SECRET,
      'SMTP password': SMTP_PASSWORD,
    });

    await proc.stop(); // flushes the log
    output = proc.output();
    const db: SqlDb = pgUrl ? await openPg(pgUrl, { schema: pg!.schema, max: 1 }) : await openDb({ databaseUrl: '', dataDir: path.join(dir, 'data') });
    try {
      const audit = await db.query<{ row: string }>(`SELECT row_to_json(a)::text AS row FROM audit_logs a`);
      auditText = audit.rows.map((x) => x.row).join('\n');
      hashes = (await db.query<{ h: string }>(`SELECT password_hash AS h FROM accounts`)).rows.map((x) => x.h);
    } finally {
      await db.close();
    }
    // the capture worked: request lines at info level, and audit rows of what was done
    expect(output.split('\n').filter((l) => l.includes('"msg":"incoming request"')).length).toBeGreaterThan(routes.length);
    expect(auditText).toContain('config_model_server');
  }, 600_000);

  it('no log line holds a password, token, cookie or API key', () => {
    expect(output.length).toBeGreaterThan(0);
    const found = Object.entries(secrets)
      .filter(([, v]) => v.length >= 8)
      .flatMap(([label, v]) => [v, encodeURIComponent(v)].filter((x) => output.includes(x)).map(() => label));
    expect([...new Set(found)]).toEqual([]);
    // nor a cookie or token header as such
    expect(output).not.toMatch(/"cookie":"[^"[]/i);
    expect(output).not.toMatch(/"admin-token":"[^"[]/i);
    expect(output).not.toMatch(/"authorization":"[^"[]/i);
  });

  it('no audit row holds a password, password hash, token, cookie or API key', () => {
    expect(auditText.length).toBeGreaterThan(0);
    const found = Object.entries(secrets).filter(([, v]) => auditText.includes(v)).map(([label]) => label);
    expect(found).toEqual([]);
    expect(hashes.filter((h) => h && auditText.includes(h))).toEqual([]);
  });
});
