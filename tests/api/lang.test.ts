// @db once
/**
 * Server messages in the console's language (issue 14): the console sends `x-lang` and every
 * refusal — the message and each field error — comes back in that language; an API client that
 * sends none gets "english / 中文".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';
import { multipart } from './business/helpers.js';

let s: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(async () => {
  await s?.close();
});

const HAN = /\p{Script=Han}/u;
const wrongLogin = (lang?: string) =>
  s.anon().request('POST', 'user/login', { body: { email: 'nobody@example.com', password: 'not-the-password-1' }, headers: lang ? { 'x-lang': lang } : {} });

describe('x-lang', () => {
  it('a wrong sign-in says so in the asked language, both without one', async () => {
    const zh = await wrongLogin('zh-CN');
    expect(zh.body.code).toBe(40001);
    expect(zh.body.msg).toMatch(HAN);
    expect(zh.body.msg).not.toMatch(/incorrect/);
    expect(zh.body.data.errors[0].message).toMatch(HAN);
    const en = await wrongLogin('en-US');
    expect(en.body.msg).toMatch(/incorrect email or password/);
    expect(en.body.msg).not.toMatch(HAN);
    const both = await wrongLogin();
    expect(both.body.msg).toMatch(/incorrect email or password \/ .*\p{Script=Han}/u);
  });

  it('validation errors of a body name each field in the asked language', async () => {
    const body = { email: 'not-an-email', name: '', password: 'short', extra: 1 };
    const zh = await admin.request('POST', 'account/create', { body, headers: { 'x-lang': 'zh-CN' } });
    expect(zh.body.code).toBe(40001);
    for (const e of zh.body.data.errors) expect(e.message, e.field).toMatch(HAN);
    const en = await admin.request('POST', 'account/create', { body, headers: { 'x-lang': 'en-US' } });
    for (const e of en.body.data.errors) expect(e.message, e.field).not.toMatch(HAN);
    expect(en.body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(zh.body.data.errors.map((e: { field: string }) => e.field).sort());
  });

  it('a refusal of the privilege or a missing record follows too', async () => {
    const zh = await admin.request('GET', 'no/such/route', { headers: { 'x-lang': 'zh-CN' } });
    expect(zh.status).toBe(404);
    expect(zh.body.msg).toMatch(HAN);
    const en = await admin.request('POST', 'role/delete', { body: { id: 2147483000 }, headers: { 'x-lang': 'en-US' } });
    expect(en.body.code).not.toBe(10000);
    expect(en.body.msg).not.toMatch(HAN);
  });

  it('names a field by its form label in the asked language, not by its key (issue 26)', async () => {
    const zh = await admin.request('POST', 'shop/create', { body: { type: 1 }, headers: { 'x-lang': 'zh-CN' } });
    expect(zh.body.code).toBe(40001);
    expect(zh.body.msg).toMatch(/^店铺名称: /);
    expect(zh.body.data.errors[0]).toMatchObject({ field: 'name', label: '店铺名称' });
    const en = await admin.request('POST', 'shop/create', { body: { type: 1 }, headers: { 'x-lang': 'en-US' } });
    expect(en.body.msg).toMatch(/^Shop name: /);
    expect(en.body.data.errors[0]).toMatchObject({ field: 'name', label: 'Shop name' });
    // no language asked: the key and both languages, as before
    expect((await admin.post('shop/create', { type: 1 })).body.msg).toMatch(/^name: .* \/ /);
    // the upload's error names the file, not "file:"
    const up = async (lang: string) => {
      const res = await fetch(admin.url('learn-doc/create'), {
        method: 'POST',
        headers: { 'x-lang': lang, cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...(admin.token ? { 'admin-token': admin.token } : {}) },
        body: multipart({ name: 'notes.exe', data: 'MZ' }, { shop_id: '1' }),
      });
      return (await res.json()) as { code: number; msg: string };
    };
    const zhUp = await up('zh-CN');
    expect(zhUp.code).toBe(40001);
    expect(zhUp.msg).toMatch(/^文件: /);
    expect((await up('en-US')).msg).toMatch(/^File: unsupported file type/);
  });
});
