// @db both — the stored key is dropped in the database when an endpoint changes
/**
 * The outbound-call policy end to end (issue 25, server/http/outbound.ts): "Test connection"
 * against 127.0.0.1 and against a name resolving to loopback is refused by default and goes through
 * only when the setting allows it; a redirect to a refused address is refused; the connection is
 * checked on the address it is made to (DNS rebinding); an endpoint changed without typing a key
 * again keeps no key; a failed test shows a classified reason, never the target's body. Every
 * address here is loopback (the names resolve through an injected resolver); a refused call
 * never leaves the process.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTarget, useResolver } from '../../server/http/outbound.js';
import { SK } from '../../server/resources/sessions/keys.js';
import { startServer, type ApiClient, type TestServer } from './harness.js';

const KEY = 'sk-outbound-test-key-000000000000wxyz';
const BODY_SECRET = 'TARGET-BODY-7f3a: internal stack trace of the target';

let s: TestServer;
let op: ApiClient;
let target: http.Server;
let port = 0;
/** what reached the listener: path and Authorization header */
const seen: Array<{ path: string; authorization: string }> = [];

/** names → loopback; `rebind.test` answers a public address once, then loopback */
let rebindCalls = 0;
const names: Record<string, () => string> = {
  'model.test': () => '127.0.0.1',
  localhost: () => '127.0.0.1',
  'allowed.test': () => '127.0.0.1',
  'rebind.test': () => (rebindCalls++ === 0 ? '93.184.216.34' : '127.0.0.1'),
};

beforeAll(async () => {
  delete process.env.OUTBOUND_ALLOW_PRIVATE;
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  useResolver(async (host) => {
    const f = names[host];
    if (!f) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address: f(), family: 4 }];
  });
  target = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: String(req.headers.authorization ?? '') });
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.url?.startsWith('/hop/')) {
        // a redirect to a loopback address named by its IP (not on the allow-list)
        res.writeHead(307, { location: `http://127.0.0.1:${port}/v1/chat/completions` }).end();
        return;
      }
      const model = (JSON.parse(raw || '{}') as { model?: string }).model ?? '';
      if (model.startsWith('fail')) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: BODY_SECRET } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
  s = await startServer();
  // an account holding only the model-server page key (the probe's persona)
  op = await s.loginWithKeys([SK.server]);
});

afterAll(async () => {
  useResolver();
  delete process.env.OUTBOUND_ALLOW_PRIVATE;
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  await s?.close();
  target?.closeAllConnections();
  await new Promise((r) => target?.close(r));
});

const create = async (endpoint: string, model = 'ok-model', extra: Record<string, unknown> = {}) =>
  (await op.ok('POST', 'config/model-server/create', { name: `srv ${Math.random()}`, model, endpoint, api_key: KEY, timeout_ms: 5000, ...extra })).id as number;
const test = (id: number, lang?: string) => op.request('POST', 'config/model-server/test', { body: { id }, headers: lang ? { 'x-lang': lang } : {} });
const stored = async (id: number) =>
  (await s.db.query<{ api_key_enc: string; api_key_mask: string }>('SELECT api_key_enc, api_key_mask FROM config_model_server WHERE id = $1', [id])).rows[0];

describe('by default, loopback is refused', () => {
  it('127.0.0.1 and a name resolving to loopback: 50200 refused by policy, nothing reaches the listener', async () => {
    for (const host of ['127.0.0.1', 'model.test', 'localhost']) {
      const id = await create(`http://${host}:${port}/v1`);
      const before = seen.length;
      const r = await test(id, 'en-US');
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(50200);
      expect(r.body.msg).toMatch(/^connection failed: refused by the outbound policy: 127\.0\.0\.1 is a loopback address/);
      expect(seen.length).toBe(before);
      const zh = await test(id, 'zh-CN');
      expect(zh.body.msg).toMatch(/^连接失败：出站策略拒绝：127\.0\.0\.1 是本机回环地址/);
      const row = await op.ok('GET', 'config/model-server/detail', { id });
      expect(row.last_test_ok).toBe(false);
      expect(row.last_test_message).toMatch(/refused by the outbound policy/);
    }
  });

  it('a link-local or metadata endpoint is refused when saved (40001 on endpoint), whatever the settings', async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = '1';
    try {
      for (const endpoint of ['http://169.254.169.254/latest', 'http://[fe80::1]/v1', 'http://user:pw@model.test/v1']) {
        const r = await op.post('config/model-server/create', { name: 'meta', model: 'm', endpoint });
        expect(r.body.code, endpoint).toBe(40001);
        expect(r.body.data.errors[0].field).toBe('endpoint');
      }
    } finally {
      delete process.env.OUTBOUND_ALLOW_PRIVATE;
    }
  });

  it('the connection is checked on the address it is made to (a name that rebinds to loopback after the first look-up)', async () => {
    rebindCalls = 0;
    // the first look-up (a check before the call) sees a public address…
    await expect(checkTarget(`http://rebind.test:${port}/v1`)).resolves.toMatchObject({ addresses: [{ address: '93.184.216.34' }] });
    // …the connection's own look-up gets loopback and is refused before any byte is sent
    const id = await create(`http://rebind.test:${port}/v1`);
    const before = seen.length;
    const r = await test(id, 'en-US');
    expect(r.body.code).toBe(50200);
    expect(r.body.msg).toContain('refused by the outbound policy: 127.0.0.1 is a loopback address');
    expect(seen.length).toBe(before);
  });
});

describe('when the operator allows it', () => {
  it('OUTBOUND_ALLOW_PRIVATE=1: 127.0.0.1 and model.test go through with the stored key', async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = '1';
    try {
      for (const host of ['127.0.0.1', 'model.test']) {
        const id = await create(`http://${host}:${port}/v1`);
        const r = await test(id);
        expect(r.body.code, r.body.msg).toBe(10000);
        expect(r.body.data).toMatchObject({ ok: true, reply: 'pong' });
        expect(seen.at(-1)).toEqual({ path: '/v1/chat/completions', authorization: `Bearer ${KEY}` });
      }
    } finally {
      delete process.env.OUTBOUND_ALLOW_PRIVATE;
    }
  });

  it('OUTBOUND_ALLOW_HOSTS: the host named goes through; its redirect to an address not named is refused', async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = 'allowed.test';
    try {
      const ok = await create(`http://allowed.test:${port}/v1`);
      expect((await test(ok)).body.code).toBe(10000);
      const hop = await create(`http://allowed.test:${port}/hop/v1`);
      const before = seen.length;
      const r = await test(hop, 'en-US');
      expect(r.body.code).toBe(50200);
      expect(r.body.msg).toContain('refused by the outbound policy: 127.0.0.1 is a loopback address');
      // the redirect was answered; the hop it pointed to was never made
      expect(seen.slice(before).map((x) => x.path)).toEqual(['/hop/v1/chat/completions']);
    } finally {
      delete process.env.OUTBOUND_ALLOW_HOSTS;
    }
  });

  it("a failed test names the HTTP status, never the target's body (both languages)", async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = '1';
    try {
      const id = await create(`http://127.0.0.1:${port}/v1`, 'fail-model');
      for (const lang of ['en-US', 'zh-CN', undefined]) {
        const r = await test(id, lang);
        expect(r.body.code).toBe(50200);
        expect(r.body.msg).toMatch(lang === 'zh-CN' ? /^连接失败：对方返回 HTTP 500$/ : lang ? /^connection failed: HTTP status 500$/ : /HTTP status 500 \/ 连接失败/);
        expect(JSON.stringify(r.body)).not.toContain('TARGET-BODY');
      }
      const row = await op.ok('GET', 'config/model-server/detail', { id });
      expect(row.last_test_message).not.toContain('TARGET-BODY');
      const calls = await s.db.query<{ error: string }>('SELECT error FROM model_call WHERE model_server_id = $1', [id]);
      for (const c of calls.rows) expect(c.error).not.toContain('TARGET-BODY');
    } finally {
      delete process.env.OUTBOUND_ALLOW_PRIVATE;
    }
  });
});

describe('changing where the key goes', () => {
  it('an endpoint change without a key leaves no key; with a key typed again the new key is kept; the same endpoint keeps it', async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = '1';
    try {
      const id = await create(`http://127.0.0.1:${port}/v1`);
      // the same endpoint written again (a trailing slash) and another field: the key stays
      await op.ok('POST', 'config/model-server/update', { id, endpoint: `http://127.0.0.1:${port}/v1/`, remark: 'same place' });
      expect((await stored(id)).api_key_mask).toBe('sk-…wxyz');

      // the probe: only the page key, a new endpoint, no key typed
      const moved = await op.ok('POST', 'config/model-server/update', { id, endpoint: `http://model.test:${port}/v1` });
      expect(moved.key_masked).toBe('');
      expect(await stored(id)).toEqual({ api_key_enc: '', api_key_mask: '' });
      const r = await test(id);
      expect(r.body.code).toBe(10000);
      expect(seen.at(-1)!.authorization).not.toContain(KEY);
      const audit = await s.db.query<{ after: { key_masked?: string } }>(
        `SELECT after FROM audit_logs WHERE resource = 'config_model_server' AND target_id = $1 ORDER BY id DESC LIMIT 1`,
        [String(id)],
      );
      expect(audit.rows[0].after.key_masked).toBe('');

      const NEW = 'sk-typed-again-0000000000000abcd';
      await op.ok('POST', 'config/model-server/update', { id, endpoint: `http://127.0.0.1:${port}/v1`, api_key: NEW });
      expect((await stored(id)).api_key_mask).toBe('sk-…abcd');
      await op.ok('POST', 'config/model-server/test', { id });
      expect(seen.at(-1)!.authorization).toBe(`Bearer ${NEW}`);
    } finally {
      delete process.env.OUTBOUND_ALLOW_PRIVATE;
    }
  });
});
