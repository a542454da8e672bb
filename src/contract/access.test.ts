import { describe, expect, it } from 'vitest';
import {
  buildAccess,
  can,
  canOpenRoute,
  flattenByKey,
  flattenByRoute,
  hasModuleAccess,
  isSuperAdmin,
  type PermissionRecord,
} from './access.js';
import { deriveManifest } from './page-menu.js';
import { MANIFEST, flattenManifest } from './permission-manifest.js';

/** The manifest with two of the pages the schemas declare (the server derives all of them: server/schemas/permission-tree.ts). */
const TREE = deriveManifest(MANIFEST, [
  { file: 'shop.list.json', module: 'intelligent_text', key: 'text.shop.list', route: 'shop/list', group: 'text.shop', order: 10, title: { 'zh-CN': '店铺', 'en-US': 'Shops' } },
  { file: 'scenes.json', module: 'intelligent_voice', key: 'admin.call_center.scene', route: 'callCenter/scene', group: 'admin.call_center', order: 10, aliases: ['scene'], title: { 'zh-CN': '场景', 'en-US': 'Scenes' } },
]).manifest;

let nextId = 1;
const perm = (module: string, permission_key: string, frontend_route: string | null = null, type = 2): PermissionRecord => ({
  id: nextId++,
  pid: 0,
  module,
  permission_key,
  permission_name: permission_key,
  permission_type: type,
  frontend_route,
});

/** Every manifest route of a module with its guard fields, as the console builds them. */
const routesOf = (module: string) =>
  flattenManifest(TREE)
    .filter((e) => e.module === module && e.path)
    .map((e) => ({ path: e.path!, module: e.module, auth: true, permissionKey: `${e.module}.${e.node.key}`, key: e.node.key }));

describe('flattening', () => {
  it('flattens by module.permission_key and by route, adding the common home', () => {
    const list = [perm('admin_center', 'admin.permission.role', '/admin_center/authCenter/role')];
    expect([...flattenByKey(list)].sort()).toEqual(['admin_center.admin.permission.role', 'unauth_common.common_home']);
    const byRoute = flattenByRoute(list);
    expect(byRoute.get('/admin_center/authCenter/role')?.permission_key).toBe('admin.permission.role');
    expect(byRoute.get('/home')?.permission_key).toBe('common_home');
  });

  it('walks children_recursive trees', () => {
    const root = { ...perm('admin_center', 'admin.permission', null, 1), children_recursive: [perm('admin_center', 'admin.permission.account')] };
    expect(flattenByKey([root]).has('admin_center.admin.permission.account')).toBe(true);
  });
});

describe('super admin', () => {
  it('is super admin when any role carries the flag (boolean or 1)', () => {
    expect(isSuperAdmin([{ is_super_admin: false }, { is_super_admin: true }])).toBe(true);
    expect(isSuperAdmin([{ is_super_admin: 1 }])).toBe(true);
    expect(isSuperAdmin([{ is_super_admin: 0 }, {}])).toBe(false);
    expect(isSuperAdmin(undefined)).toBe(false);
  });

  it('opens every route and holds every key', () => {
    const access = buildAccess([], [{ is_super_admin: true }]);
    for (const module of ['intelligent_text', 'intelligent_voice', 'panda_descendant', 'admin_center'])
      for (const r of routesOf(module)) expect(canOpenRoute(access, r), r.path).toBe(true);
    expect(can(access, 'anything.at.all')).toBe(true);
  });
});

describe('route guard (spec section 6)', () => {
  it('intelligent_voice + admin.call_center.scene opens callCenter/scene and nothing else in that module', () => {
    const access = buildAccess(
      [perm('intelligent_voice', 'intelligent_voice', null, 4), perm('intelligent_voice', 'admin.call_center.scene', '/intelligent_voice/callCenter/scene')],
      [{ is_super_admin: false }],
    );
    const open = routesOf('intelligent_voice').filter((r) => canOpenRoute(access, r)).map((r) => r.path);
    expect(open).toEqual(['/intelligent_voice/callCenter/scene']);
    expect(hasModuleAccess(access, 'intelligent_voice')).toBe(true);
    expect(hasModuleAccess(access, 'intelligent_text')).toBe(false);
    expect(routesOf('intelligent_text').some((r) => canOpenRoute(access, r))).toBe(false);
  });

  it('needs module access even for routes without a key', () => {
    const access = buildAccess([perm('intelligent_text', 'text.shop.list')], []);
    expect(canOpenRoute(access, { module: 'admin_center', auth: false })).toBe(false);
    expect(canOpenRoute(access, { module: 'intelligent_text', auth: false })).toBe(true);
  });

  it('grants module access when any key starts with the module prefix', () => {
    const access = buildAccess([perm('intelligent_text', 'text.shop.list')], []);
    expect(hasModuleAccess(access, 'intelligent_text')).toBe(true);
    expect(hasModuleAccess(access, 'panda_descendant')).toBe(false);
  });

  it('always opens the unauth_common module (/home)', () => {
    const access = buildAccess([], []);
    expect(canOpenRoute(access, { module: 'unauth_common', auth: false, key: 'common_home' })).toBe(true);
    expect(hasModuleAccess(access, 'unauth_common')).toBe(true);
  });

  it('passes routes without the auth flag or without a key', () => {
    const access = buildAccess([perm('lab', 'x')], []);
    expect(canOpenRoute(access, { module: 'lab', auth: false, permissionKey: 'lab.secret' })).toBe(true);
    expect(canOpenRoute(access, { module: 'lab', auth: true })).toBe(true);
    expect(canOpenRoute(access, {})).toBe(true);
  });

  it('falls back to the route key when there is no permission key', () => {
    const access = buildAccess([perm('panda_descendant', 'lab.train.task')], []);
    expect(canOpenRoute(access, { module: 'panda_descendant', auth: true, key: 'panda_descendant.lab.train.task' })).toBe(true);
    expect(canOpenRoute(access, { module: 'panda_descendant', auth: true, key: 'panda_descendant.lab.train.dataset' })).toBe(false);
  });

  it('limits an intelligent_text account to its keys', () => {
    const access = buildAccess(
      [perm('intelligent_text', 'text_home', '/intelligent_text/home'), perm('intelligent_text', 'text.shop.list', '/intelligent_text/shop/list')],
      [{ is_super_admin: false }],
    );
    const open = routesOf('intelligent_text').filter((r) => canOpenRoute(access, r)).map((r) => r.path);
    expect(open).toEqual(['/intelligent_text/home', '/intelligent_text/shop/list']);
    expect(can(access, 'intelligent_text.text.shop.list.edit')).toBe(false);
  });
});
