// @db once
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRoutes } from '../../server/http/route.js';
import { NoReply } from '../../server/http/typebox.js';
import { allRoutes } from '../../server/routes/index.js';
import { startServer, type ApiClient, type TestServer } from './harness.js';

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-dist-'));
fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>console</title><div id="root"></div>');
fs.writeFileSync(path.join(dist, 'app.js'), 'console.log(1)');

const crash = defineRoutes([
  {
    method: 'GET',
    path: 'test/crash',
    access: 'public',
    reply: NoReply,
    async handler() {
      throw new Error('secret internal detail: password=hunter2');
    },
  },
]);

let s: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  s = await startServer({ config: { staticDir: dist, bodyLimit: 64 * 1024, cookieSecure: true }, routes: [...(await allRoutes()), ...crash] });
  admin = await s.login();
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const count = async (table: string) => (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;

describe('envelope and HTTP statuses', () => {
  it('unknown /api route → HTTP 404 with an envelope', async () => {
    const r = await admin.get('no/such/route');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(40004);
    const post = await admin.post('/api/whatever', {});
    expect(post.status).toBe(404);
    expect(post.body.code).toBe(40004);
    // paths are case-sensitive: User/Get exists, user/get does not
    expect((await admin.get('user/get')).status).toBe(404);
  });

  it('oversized body → HTTP 413 with an envelope', async () => {
    const r = await admin.post('role/create', { name: 'x'.repeat(100 * 1024) });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe(40001);
  });

  it('crash → HTTP 500, code 50000, no details', async () => {
    const r = await s.anon().get('test/crash');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ code: 50000, msg: 'internal error / 服务器内部错误', data: null });
  });

  it('an empty JSON body reads as {}', async () => {
    const r = await admin.request('POST', 'account/role-permissions', { headers: { 'content-type': 'application/json' } });
    expect(r.body.code).toBe(10000);
  });

  it('malformed JSON → 400 envelope', async () => {
    const r = await admin.request('POST', 'role/create', { body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(40001);
  });
});

describe('validation', () => {
  it('40001 names each field and writes nothing', async () => {
    const accounts = await count('accounts');
    const audits = await count('audit_logs');
    const r = await admin.post('account/create', { email: 'not-an-email', name: '', password: 'short', extra: 1 });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(40001);
    const fields = r.body.data.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['email', 'extra', 'name', 'password']);
    expect(r.body.msg).toContain('email');
    expect(await count('accounts')).toBe(accounts);
    expect(await count('audit_logs')).toBe(audits);
  });

  it('missing required fields are named', async () => {
    const r = await s.anon().post('user/login', {});
    expect(r.body.code).toBe(40001);
    expect(r.body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'password']);
  });

  it('query strings are coerced; bad values and extra parameters are refused', async () => {
    const ok = await admin.get('role/list', { page: '1', page_size: '5' });
    expect(ok.body.code).toBe(10000);
    expect(ok.body.data).toMatchObject({ page: 1, page_size: 5, total: 1 });
    const bad = await admin.get('role/list', { page: 'abc', page_size: 5000, bogus: 1 });
    expect(bad.body.code).toBe(40001);
    expect(bad.body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(['bogus', 'page', 'page_size']);
  });

  it('bodies are not coerced', async () => {
    const r = await admin.post('role/create', { name: 'typed', is_super_admin: 'true' });
    expect(r.body.code).toBe(40001);
    expect(r.body.data.errors[0].field).toBe('is_super_admin');
  });
});

describe('cookies', () => {
  it('COOKIE_SECURE=1 marks both cookies Secure; guard is HttpOnly, sid is not', async () => {
    const r = await s.anon().post('user/login', { email: 'admin@example.com', password: 'admin-test-password' });
    const [sid, guard] = ['sid=', 'sid_guard='].map((p) => r.headers.getSetCookie().find((c) => c.startsWith(p))!);
    expect(sid).toMatch(/; Secure/);
    expect(sid).not.toMatch(/HttpOnly/);
    expect(guard).toMatch(/; Secure/);
    expect(guard).toMatch(/HttpOnly/);
  });
});

describe('static client, CSP and docs', () => {
  it('serves files and falls back to index.html for client routes, with a strict CSP', async () => {
    const file = await fetch(`${s.url}/app.js`);
    expect(file.status).toBe(200);
    const page = await fetch(`${s.url}/intelligent_text/shop/list`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
  });

  it('OpenAPI document lists the routes', async () => {
    const r = await fetch(`${s.url}/api/docs/json`);
    expect(r.status).toBe(200);
    const doc = (await r.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/admin/user/login', '/api/admin/User/Get', '/api/admin/role/list', '/api/common/config']));
    expect((await fetch(`${s.url}/api/docs`)).status).toBeLessThan(400);
  });
});
