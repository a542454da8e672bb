// @db once — routes and the privilege ceiling: engine-independent
/**
 * The privilege ceiling completed (issue 25, server/auth/ceiling.ts): a role editor cannot take
 * away keys it does not hold itself; minting a service token needs the page key of every scope
 * it grants; a token can be limited to shops, and a record of another shop is rejected on
 * `shop_id`. Each refusal is 40003 (audited as `forbidden`) or 40001 naming the field, and
 * changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPE_KEYS, ServiceTokenKeys } from '../../server/routes/service-tokens.js';
import { startServer, type ApiClient, type TestServer } from './harness.js';

const A = 'admin_center.admin.permission';
let s: TestServer;
let admin: ApiClient;
let shopA: number;
let shopB: number;

const permIds = async (where: string, params: unknown[] = []): Promise<number[]> =>
  (await s.db.query<{ id: number }>(`SELECT id FROM permissions p WHERE ${where} ORDER BY id`, params)).rows.map((r) => r.id);
const rolePerms = async (roleId: number): Promise<number[]> =>
  (await s.db.query<{ id: number }>('SELECT permission_id AS id FROM role_permissions WHERE role_id = $1 ORDER BY 1', [roleId])).rows.map((r) => r.id);
const forbiddenAudits = async () => (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_logs WHERE action = 'forbidden'`)).rows[0].n;

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  shopA = (await admin.ok('POST', 'shop/create', { name: 'Shop A', type: 1 })).id;
  shopB = (await admin.ok('POST', 'shop/create', { name: 'Shop B', type: 1 })).id;
});
afterAll(async () => {
  await s?.close();
});

describe('role update: keys taken away', () => {
  it('a role editor cannot strip keys it lacks from a bigger role; it may remove keys it holds', async () => {
    const held = ['intelligent_text', 'intelligent_text.text_home'];
    const actor = await s.loginWithKeys(['admin_center', `${A}.role`, `${A}.role.update`, ...held]);
    const textIds = await permIds(`p.module = 'intelligent_text'`);
    const big = (await admin.ok('POST', 'role/create', { name: 'Big text role', permission_ids: textIds })).id as number;
    const heldIds = await permIds(`(p.module || '.' || p.permission_key) = ANY($1::text[])`, [held]);
    const before = await rolePerms(big);
    const audits = await forbiddenAudits();

    // keep only what the actor holds: every other text key would be taken from the role's holders
    const strip = await actor.post('role/update', { id: big, permission_ids: heldIds });
    expect(strip.body.code).toBe(40003);
    expect(strip.body.msg).toMatch(/^you cannot remove permissions you do not hold yourself: intelligent_text\..+ \/ 不能移除自己未拥有的权限：/);
    const emptied = await actor.post('role/update', { id: big, permission_ids: [] });
    expect(emptied.body.code).toBe(40003);
    expect(await rolePerms(big)).toEqual(before);
    expect(await forbiddenAudits()).toBe(audits + 2);

    // taking away a key it holds itself is within its powers
    const homeId = (await permIds(`(p.module || '.' || p.permission_key) = 'intelligent_text.text_home'`))[0];
    const ok = await actor.post('role/update', { id: big, permission_ids: before.filter((id) => id !== homeId) });
    expect(ok.body.code, ok.body.msg).toBe(10000);
    expect(await rolePerms(big)).toEqual(before.filter((id) => id !== homeId));
  });
});

describe('service tokens', () => {
  it('minting needs the page key of every scope granted; the shops must exist', async () => {
    const creator = await s.loginWithKeys([ServiceTokenKeys.page, ServiceTokenKeys.create, SCOPE_KEYS.sessions]);
    const tokens = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM service_token')).rows[0].n;
    const beyond = await creator.post('service-token/create', { name: 'grab', scopes: ['sessions', 'orders'] });
    expect(beyond.body.code).toBe(40003);
    expect(beyond.body.msg).toContain(SCOPE_KEYS.orders);
    const unknownShop = await creator.post('service-token/create', { name: 'x', scopes: ['sessions'], shop_ids: [shopA, 1_999_999_999] });
    expect(unknownShop.body.code).toBe(40001);
    expect(unknownShop.body.data.errors[0].field).toBe('shop_ids');
    expect((await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM service_token')).rows[0].n).toBe(tokens);
    const ok = await creator.post('service-token/create', { name: 'sessions of shop A', scopes: ['sessions'], shop_ids: [shopA] });
    expect(ok.body.code, ok.body.msg).toBe(10000);
    expect(ok.body.data).toMatchObject({ scopes: ['sessions'], shop_ids: [shopA] });
  });

  it('a token limited to a shop writes that shop only; an unlimited one writes every shop', async () => {
    const order = (ext: string, shop_id: number) => ({
      external_id: ext,
      shop_id,
      name: `#${ext}`,
      email: 'buyer@example.com',
      amount: 10,
      currency: 'EUR',
      financial_status: 'paid',
      fulfillment_status: 'unfulfilled',
      created_at: '2026-03-01T10:00:00Z',
    });
    const limited = await admin.ok('POST', 'service-token/create', { name: 'orders of A', scopes: ['orders'], shop_ids: [shopA] });
    const every = await admin.ok('POST', 'service-token/create', { name: 'orders of all', scopes: ['orders'] });
    expect(every.shop_ids).toBeNull();
    const push = (token: string, records: unknown[]) =>
      s.anon().request('POST', '/api/ingest/v1/orders', { body: { records }, headers: { authorization: `Bearer ${token}`, 'x-lang': 'en-US' } });

    const r = await push(limited.token, [order('lim-a', shopA), order('lim-b', shopB)]);
    expect(r.body.code).toBe(10000);
    expect(r.body.data.results.map((x: { status: string }) => x.status)).toEqual(['created', 'rejected']);
    expect(r.body.data.results[1].errors).toEqual([{ field: 'shop_id', message: 'this service token may not write to this shop' }]);
    const stored = await s.db.query<{ external_id: string }>(`SELECT external_id FROM shop_order WHERE external_id LIKE 'lim-%' ORDER BY 1`);
    expect(stored.rows.map((x) => x.external_id)).toEqual(['lim-a']);

    const all = await push(every.token, [order('all-a', shopA), order('all-b', shopB)]);
    expect(all.body.data.results.map((x: { status: string }) => x.status)).toEqual(['created', 'created']);
  });
});
