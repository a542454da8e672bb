// @db both — read caches against writes seen through each engine's connections
/**
 * The session look-up and list totals are kept for a few seconds (server/db/tracked.ts); these
 * tests prove a write made in this process is seen by the very next request, whoever made it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(async () => {
  await s?.close();
});

const T = 'intelligent_text';
const shop = (name: string) => ({ name, type: 1, link: `https://${name.toLowerCase().replace(/\W+/g, '-')}.myshopify.com`, env: 'dev', creation_source: 0, country_code: 'US' });

describe('kept sessions', () => {
  it('a permission taken from a role applies to the next request, and given back too', async () => {
    const c = await s.loginWithKeys([T, `${T}.text_home`, `${T}.text.shop.list`]);
    expect((await c.get('shop/list')).body.code).toBe(10000);
    expect((await c.get('shop/list')).body.code).toBe(10000);
    const role = await admin.ok('GET', 'role/detail', { id: c.roleId });
    const listKey = await s.db.query<{ id: number }>(`SELECT id FROM permissions WHERE module = $1 AND permission_key = 'text.shop.list'`, [T]);
    const without = role.permission_ids.filter((id: number) => id !== listKey.rows[0].id);
    await admin.ok('POST', 'role/update', { id: c.roleId, permission_ids: without });
    expect((await c.get('shop/list')).body.code).toBe(40003);
    await admin.ok('POST', 'role/update', { id: c.roleId, permission_ids: role.permission_ids });
    expect((await c.get('shop/list')).body.code).toBe(10000);
  });

  it('an account disabled straight in the database is signed out at once', async () => {
    const c = await s.loginWithKeys([T, `${T}.text_home`]);
    expect((await c.get('User/Get')).body.code).toBe(10000);
    await s.db.query('UPDATE accounts SET status = 0 WHERE id = $1', [c.accountId]);
    expect((await c.get('User/Get')).body.code).toBe(20001);
  });

  it('sign-out ends the session for the next request', async () => {
    const c = await s.login();
    expect((await c.get('User/Get')).body.code).toBe(10000);
    const kept = new Map(c.cookies);
    await c.ok('POST', 'user/logout');
    // the same token and cookies, replayed right after
    for (const [k, v] of kept) c.cookies.set(k, v);
    expect((await c.get('User/Get')).body.code).toBe(20001);
  });
});

describe('kept totals', () => {
  it('a created or deleted row shows in the next total of the same filter', async () => {
    const total = async () => (await admin.ok('GET', 'shop/list', { env: 'dev', page_size: 1 })).total as number;
    const before = await total();
    expect(await total()).toBe(before);
    const a = await admin.ok('POST', 'shop/create', shop('Kept Total A'));
    expect(await total()).toBe(before + 1);
    await admin.ok('POST', 'shop/create', shop('Kept Total B'));
    expect(await total()).toBe(before + 2);
    await admin.ok('POST', 'shop/update', { id: a.id, env: 'prod' });
    expect(await total()).toBe(before + 1);
    // a write straight to the database through the app's handle counts as well
    await s.db.query(`DELETE FROM shop WHERE name = 'Kept Total B'`);
    expect(await total()).toBe(before);
  });

  it('a refused write leaves the total as it was', async () => {
    const before = (await admin.ok('GET', 'shop/list', { env: 'dev' })).total;
    expect((await admin.post('shop/create', { ...shop('Bad'), type: 9 })).body.code).toBe(40001);
    expect((await admin.ok('GET', 'shop/list', { env: 'dev' })).total).toBe(before);
  });
});
