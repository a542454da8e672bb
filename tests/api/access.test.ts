// @db once
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import type { JobEngine } from '../../server/jobs/engine.js';
import type { Db } from '../../server/db/db.js';
import { defineRoutes, type RouteDef } from '../../server/http/route.js';
import { NoReply } from '../../server/http/typebox.js';
import { startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let limited: ApiClient & { accountId: number; roleId: number };
beforeAll(async () => {
  s = await startServer();
  limited = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text_home', 'intelligent_text.text.shop.list']);
});
afterAll(async () => {
  await s?.close();
});

const count = async (table: string) => (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;

describe('deny by default', () => {
  it('a limited account gets 40003 on admin calls and nothing is written but the refusals\' audit rows', async () => {
    const roles = await count('roles');
    const audits = await count('audit_logs');
    for (const [method, path, body] of [
      ['GET', 'role/list', undefined],
      ['GET', 'account/list', undefined],
      ['GET', 'permission/tree', undefined],
      ['GET', 'audit-log/list', undefined],
      ['POST', 'role/create', { name: 'sneaky', is_super_admin: true }],
      ['POST', 'account/update', { id: limited.accountId, role_ids: [1] }],
      ['POST', 'permission/delete', { id: 1 }],
    ] as const) {
      const r = method === 'GET' ? await limited.get(path) : await limited.post(path, body);
      expect(r.status, path).toBe(200);
      expect(r.body, path).toEqual({ code: 40003, msg: 'forbidden', data: null });
    }
    expect(await count('roles')).toBe(roles);
    // one audit row per refused call (server/http/register.ts), nothing else
    const rows = await s.db.query<{ action: string; actor_id: number }>('SELECT action, actor_id FROM audit_logs ORDER BY id OFFSET $1', [audits]);
    expect(rows.rows).toHaveLength(7);
    expect(rows.rows.every((r) => r.action === 'forbidden' && r.actor_id === limited.accountId)).toBe(true);
    const me = await limited.get('User/Get');
    expect(me.body.data.roles).toEqual([expect.objectContaining({ id: limited.roleId, is_super_admin: false })]);
  });

  it('login-only calls work and role-permissions lists only the held keys plus common_home', async () => {
    const r = await limited.post('account/role-permissions');
    expect(r.body.code).toBe(10000);
    const keys = r.body.data.permissions.map((p: { module: string; permission_key: string }) => `${p.module}.${p.permission_key}`).sort();
    expect(keys).toEqual(['intelligent_text.intelligent_text', 'intelligent_text.text.shop.list', 'intelligent_text.text_home', 'unauth_common.common_home'].sort());
    const home = r.body.data.permissions.find((p: { id: number }) => p.id === -1);
    expect(home).toMatchObject({ pid: -1, permission_key: 'common_home', frontend_route: '/home', permission_type: 2 });
    const list = r.body.data.permissions.find((p: { permission_key: string }) => p.permission_key === 'text.shop.list');
    expect(list).toMatchObject({ permission_type: 2, frontend_route: '/intelligent_text/shop/list' });
    expect(Object.keys(list).sort()).toEqual(
      ['frontend_route', 'id', 'module', 'permission_key', 'permission_name', 'permission_name_en', 'permission_type', 'pid'].sort(),
    );
    expect(r.body.data.roles).toHaveLength(1);
  });

  it('a key grants exactly its routes: account page → account/list and role/all, not role/list', async () => {
    const c = await s.loginWithKeys(['admin_center', 'admin_center.admin.permission.account']);
    expect((await c.get('account/list')).body.code).toBe(10000);
    expect((await c.get('role/all')).body.code).toBe(10000);
    expect((await c.get('role/list')).body.code).toBe(40003);
    expect((await c.post('account/create', { email: 'x@example.com', name: 'x', password: 'amber-kettle-river-7' })).body.code).toBe(40003);
  });

  it('a role editor cannot create super-admin roles or grant keys it does not hold', async () => {
    const c = await s.loginWithKeys(['admin_center', 'admin_center.admin.permission.role', 'admin_center.admin.permission.role.create']);
    expect((await c.post('role/create', { name: 'escalate', is_super_admin: true })).body.code).toBe(40003);
    const perm = await s.db.query<{ id: number }>(`SELECT id FROM permissions WHERE permission_key = 'admin.permission.account.delete'`);
    expect((await c.post('role/create', { name: 'escalate2', permission_ids: [perm.rows[0].id] })).body.code).toBe(40003);
    const own = await s.db.query<{ id: number }>(`SELECT id FROM permissions WHERE permission_key = 'admin.permission.role'`);
    expect((await c.post('role/create', { name: 'fine', permission_ids: [own.rows[0].id] })).body.code).toBe(10000);
  });
});

describe('static', () => {
  it('without a built client, pages say to run npm run build; /api stays JSON', async () => {
    const r = await fetch(`${s.url}/`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('npm run build');
    expect(r.headers.get('content-security-policy')).not.toContain('unsafe-eval');
    expect((await s.anon().get('nothing/here')).status).toBe(404);
  });
});

describe('buildApp', () => {
  const config = { ...loadConfig({}), logLevel: 'silent' };
  const db = {} as Db;
  // no database here: an engine that is never started (buildApp starts only one it makes itself)
  const jobs = { running: false, runsWorkers: false } as unknown as JobEngine;
  const ok = defineRoutes([{ method: 'GET', path: 'x/ok', access: 'login', reply: NoReply, handler: async () => null }]);

  it('throws when a route declares no access', async () => {
    const bad = [{ method: 'GET', path: 'x/open', handler: async () => null } as unknown as RouteDef];
    await expect(buildApp({ config, db, jobs, routes: [...ok, ...bad] })).rejects.toThrow(/GET \/api\/admin\/x\/open declares no access/);
  });

  it('throws when a route names a key that is not in the manifest', async () => {
    const bad = defineRoutes([{ method: 'GET', path: 'x/typo', access: { permission: 'intelligent_text.text.shop.lst' }, reply: NoReply, handler: async () => null }]);
    await expect(buildApp({ config, db, jobs, routes: bad })).rejects.toThrow(/not in the manifest/);
  });

  it('builds with valid routes', async () => {
    const app = await buildApp({ config, db, jobs, routes: ok });
    await app.close();
  });
});
