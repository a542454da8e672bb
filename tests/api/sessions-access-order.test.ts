// @db once
/**
 * The login and access check run in an onRequest hook, before the body is read or validated
 * (issue 12 item 8): an anonymous caller learns nothing about the body rules, and a caller
 * without the route's key gets 40003 (audited) whatever it sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let admin: ApiClient;
let shopOnly: ApiClient;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  shopOnly = await s.loginWithKeys(['intelligent_text.text.shop.list']);
});
afterAll(async () => {
  await s?.close();
});

const BAD_ROLE = { name: 42, surprise: true, permission_ids: 'all' };

describe('login and access checks come before body validation', () => {
  it('anonymous: 20001 for a bad body, malformed JSON, a wrong content type and a bad query', async () => {
    const anon = s.anon();
    expect((await anon.post('role/create', BAD_ROLE)).body).toEqual({ code: 20001, msg: 'not logged in', data: null });
    expect((await anon.request('POST', 'role/create', { body: '{"name": ', headers: { 'content-type': 'application/json' } })).body.code).toBe(20001);
    expect((await anon.request('POST', 'role/create', { body: 'name=x', headers: { 'content-type': 'text/plain' } })).body.code).toBe(20001);
    expect((await anon.get('role/list', { page: 'first', page_size: -3 })).body.code).toBe(20001);
  });

  it('a persona without the key: 40003 for a bad body, with an audit row and no field errors', async () => {
    const before = (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_logs WHERE action = 'forbidden'`)).rows[0].n;
    const r = await shopOnly.post('role/create', BAD_ROLE);
    expect(r.body).toEqual({ code: 40003, msg: 'forbidden', data: null });
    const bad = await shopOnly.request('POST', 'role/create', { body: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(bad.body.code).toBe(40003);
    const rows = await s.db.query<{ resource: string; after: { route: string } }>(
      `SELECT resource, after FROM audit_logs WHERE action = 'forbidden' ORDER BY id`,
    );
    expect(rows.rows.length - before).toBe(2);
    expect(rows.rows.at(-1)).toMatchObject({ resource: 'role', after: { route: 'POST /api/admin/role/create' } });
  });

  it('with the key, the body is validated as before (40001 naming the fields); the persona keeps its own routes', async () => {
    const r = await admin.post('role/create', BAD_ROLE);
    expect(r.body.code).toBe(40001);
    const fields = r.body.data.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'surprise']));
    expect((await shopOnly.get('shop/list', { page: 1 })).body.code).toBe(10000);
    expect((await shopOnly.get('shop/list', { page: 'first' })).body.code).toBe(40001);
  });

  it('public routes validate as usual', async () => {
    const r = await s.anon().post('user/login', { email: '', extra: 1 });
    expect(r.body.code).toBe(40001);
  });
});
