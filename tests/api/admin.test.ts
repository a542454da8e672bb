// @db once
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(async () => {
  await s?.close();
});

describe('accounts', () => {
  it('create, list with roles, duplicate email → 40009', async () => {
    const role = await admin.ok('POST', 'role/create', { name: 'Ops', permission_ids: [] });
    const acc = await admin.ok('POST', 'account/create', { email: 'Ops@Example.com', name: 'Ops', password: 'amber-kettle-river-7', role_ids: [role.id] });
    expect(acc).toMatchObject({ email: 'ops@example.com', status: 1, role_ids: [role.id], roles: [{ id: role.id, name: 'Ops', is_super_admin: false }] });
    expect(acc.password_hash).toBeUndefined();
    const dup = await admin.post('account/create', { email: 'ops@example.com', name: 'x', password: 'amber-kettle-river-7' });
    expect(dup.body.code).toBe(40009);
    const list = await admin.ok('GET', 'account/list', { keyword: 'ops' });
    expect(list).toMatchObject({ total: 1, page: 1, page_size: 10 });
    expect(list.list[0]).toMatchObject({ email: 'ops@example.com', roles: [{ name: 'Ops' }] });
    expect((await admin.post('account/create', { email: 'y@example.com', name: 'y', password: 'amber-kettle-river-7', role_ids: [9999] })).body.code).toBe(40004);
    expect((await admin.post('account/update', { id: 9999, name: 'z' })).body.code).toBe(40004);
  });

  it('disabling an account revokes its sessions and blocks login', async () => {
    await admin.ok('POST', 'account/create', { email: 'dis@example.com', name: 'Dis', password: 'amber-kettle-river-7' });
    const c = await s.login('dis@example.com', 'amber-kettle-river-7');
    const id = (await c.get('User/Get')).body.data.id;
    await admin.ok('POST', 'account/update', { id, status: 0 });
    expect((await c.get('User/Get')).body.code).toBe(20001);
    const live = await s.db.query('SELECT 1 FROM sessions WHERE account_id = $1 AND revoked_at IS NULL', [id]);
    expect(live.rows).toHaveLength(0);
    expect((await s.anon().post('user/login', { email: 'dis@example.com', password: 'amber-kettle-river-7' })).body.code).toBe(40001);
    await admin.ok('POST', 'account/update', { id, status: 1 });
    await s.login('dis@example.com', 'amber-kettle-river-7');
  });

  it('deleting an account ends its sessions; own account and last super admin are protected', async () => {
    await admin.ok('POST', 'account/create', { email: 'del@example.com', name: 'Del', password: 'amber-kettle-river-7' });
    const c = await s.login('del@example.com', 'amber-kettle-river-7');
    const id = (await c.get('User/Get')).body.data.id;
    await admin.ok('POST', 'account/delete', { id });
    expect((await c.get('User/Get')).body.code).toBe(20001);
    expect((await admin.post('account/delete', { id })).body.code).toBe(40004);
    const me = (await admin.get('User/Get')).body.data;
    const own = await admin.post('account/delete', { id: me.id });
    expect(own.body.code).toBe(40009);
    expect(own.body.msg).toMatch(/own account/);
    expect((await admin.post('account/update', { id: me.id, status: 0 })).body.code).toBe(40009);
    const demote = await admin.post('account/update', { id: me.id, role_ids: [] });
    expect(demote.body.code).toBe(40009);
    expect(demote.body.msg).toMatch(/last enabled super admin/);
    expect((await admin.get('User/Get')).body.data.roles).toHaveLength(1);
  });

  it('reset-password returns a generated password once and ends the sessions', async () => {
    const acc = await admin.ok('POST', 'account/create', { email: 'rst@example.com', name: 'R', password: 'amber-kettle-river-7' });
    const c = await s.login('rst@example.com', 'amber-kettle-river-7');
    const r = await admin.ok('POST', 'account/reset-password', { id: acc.id });
    expect(r.generated).toBe(true);
    expect(r.password.length).toBeGreaterThanOrEqual(16);
    expect((await c.get('User/Get')).body.code).toBe(20001);
    await s.login('rst@example.com', r.password);
  });
});

describe('roles', () => {
  it('list / all / detail / update / delete with conflicts', async () => {
    const perms = await admin.ok('GET', 'permission/list', { module: 'intelligent_text', page_size: 3 });
    const ids = perms.list.map((p: { id: number }) => p.id);
    const role = await admin.ok('POST', 'role/create', { name: 'Text', is_super_admin: false, permission_ids: ids });
    expect(role.permission_ids).toEqual([...ids].sort((a, b) => a - b));
    expect((await admin.post('role/create', { name: 'text' })).body.code).toBe(40009);
    const detail = await admin.ok('GET', 'role/detail', { id: role.id });
    expect(detail).toMatchObject({ name: 'Text', permission_ids: role.permission_ids, account_count: 0 });
    expect((await admin.get('role/detail', { id: 99999 })).body.code).toBe(40004);
    const all = await admin.ok('GET', 'role/all');
    expect(all.map((r: { name: string }) => r.name)).toContain('Text');
    const page = await admin.ok('GET', 'role/list', { name: 'Tex' });
    expect(page.total).toBe(1);
    await admin.ok('POST', 'role/update', { id: role.id, permission_ids: [ids[0]] });
    expect((await admin.ok('GET', 'role/detail', { id: role.id })).permission_ids).toEqual([ids[0]]);
    await admin.ok('POST', 'account/create', { email: 'holder@example.com', name: 'H', password: 'amber-kettle-river-7', role_ids: [role.id] });
    const held = await admin.post('role/delete', { id: role.id });
    expect(held.body.code).toBe(40009);
    expect(held.body.msg).toMatch(/still assigned/);
    const superRole = all.find((r: { is_super_admin: boolean }) => r.is_super_admin);
    expect((await admin.post('role/update', { id: superRole.id, is_super_admin: false })).body.code).toBe(40009);
  });
});

describe('permissions', () => {
  it('tree roots are the four modules with children_recursive', async () => {
    const tree = await admin.ok('GET', 'permission/tree');
    expect(tree.map((n: { permission_key: string }) => n.permission_key)).toEqual(['intelligent_text', 'intelligent_voice', 'panda_descendant', 'admin_center']);
    expect(tree.every((n: { permission_type: number }) => n.permission_type === 4)).toBe(true);
    const admin_ = tree[3];
    const menu = admin_.children_recursive.find((n: { permission_key: string }) => n.permission_key === 'admin.permission');
    const role = menu.children_recursive.find((n: { permission_key: string }) => n.permission_key === 'admin.permission.role');
    expect(role).toMatchObject({ permission_type: 2, frontend_route: '/admin_center/authCenter/role', pid: menu.id });
    expect(role.children_recursive.map((n: { permission_key: string }) => n.permission_key)).toEqual(
      expect.arrayContaining(['admin.permission.role.create', 'admin.permission.role.update', 'admin.permission.role.delete', 'admin.permission.role.detail']),
    );
  });

  it('create / update / delete, conflicts and children', async () => {
    const parent = await admin.ok('POST', 'permission/create', { module: 'admin_center', permission_key: 'x.custom', permission_name: '自定义', permission_type: 1 });
    const child = await admin.ok('POST', 'permission/create', { pid: parent.id, module: 'admin_center', permission_key: 'x.custom.btn', permission_name: '按钮', permission_type: 3 });
    expect((await admin.post('permission/create', { module: 'admin_center', permission_key: 'x.custom', permission_name: 'dup', permission_type: 1 })).body.code).toBe(40009);
    expect((await admin.post('permission/create', { pid: 99999, module: 'admin_center', permission_key: 'y', permission_name: 'y', permission_type: 1 })).body.code).toBe(40004);
    const upd = await admin.ok('POST', 'permission/update', { id: child.id, permission_name: '按钮2' });
    expect(upd).toMatchObject({ permission_name: '按钮2', pid: parent.id });
    expect((await admin.post('permission/delete', { id: parent.id })).body.code).toBe(40009);
    await admin.ok('POST', 'permission/delete', { id: child.id });
    await admin.ok('POST', 'permission/delete', { id: parent.id });
    const list = await admin.ok('GET', 'permission/list', { keyword: 'x.custom' });
    expect(list.total).toBe(0);
  });

  it('accepts the type by name (menu, page, button) as well as by number, and reads it back by both', async () => {
    const menu = await admin.ok('POST', 'permission/create', { module: 'admin_center', permission_key: 'x.named', permission_name: '命名', permission_type: 'menu' });
    expect(menu).toMatchObject({ permission_type: 1, permission_type_name: 'menu' });
    const page = await admin.ok('POST', 'permission/create', { pid: menu.id, module: 'admin_center', permission_key: 'x.named.page', permission_name: '页', permission_type: 'page' });
    const btn = await admin.ok('POST', 'permission/create', { pid: page.id, module: 'admin_center', permission_key: 'x.named.btn', permission_name: '钮', permission_type: 3 });
    expect([page.permission_type, btn.permission_type_name]).toEqual([2, 'button']);
    expect(await admin.ok('POST', 'permission/update', { id: btn.id, permission_type: 'page' })).toMatchObject({ permission_type: 2, permission_type_name: 'page' });
    expect(await admin.ok('POST', 'permission/update', { id: btn.id, permission_name: '钮2' })).toMatchObject({ permission_type: 2 });
    const byName = await admin.ok('GET', 'permission/list', { keyword: 'x.named', permission_type: 'page' });
    const byNumber = await admin.ok('GET', 'permission/list', { keyword: 'x.named', permission_type: 2 });
    expect(byName.list.map((r: { id: number }) => r.id).sort()).toEqual([page.id, btn.id].sort());
    expect(byNumber.list).toEqual(byName.list);
    expect((await admin.ok('GET', 'permission/list', { keyword: 'x.named', permission_type: 'menu' })).list.map((r: { id: number }) => r.id)).toEqual([menu.id]);
    for (const bad of ['folder', 5, 'Page']) {
      const r = await admin.post('permission/create', { module: 'admin_center', permission_key: `x.bad${String(bad)}`, permission_name: 'b', permission_type: bad });
      expect(r.body.code, String(bad)).toBe(40001);
      expect(r.body.msg).toMatch(/permission_type/);
      expect((await admin.get('permission/list', { permission_type: bad })).body.code).toBe(40001);
    }
    for (const id of [btn.id, page.id, menu.id]) await admin.ok('POST', 'permission/delete', { id });
  });

  it('page_size defaults to 10 and caps at 1000', async () => {
    const d = await admin.ok('GET', 'permission/list');
    expect(d.list).toHaveLength(10);
    expect(d.page_size).toBe(10);
    expect(d.total).toBeGreaterThan(100);
    expect((await admin.get('permission/list', { page_size: 1001 })).body.code).toBe(40001);
    expect(ADMIN_EMAIL).toBe('admin@example.com');
  });
});
