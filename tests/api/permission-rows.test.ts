// @db once
/**
 * Issue 22: permission rows follow the permission tree both ways. A page key declared new under
 * the dev watch and reverted left its row behind — two rows with the same route and title in
 * the permission table, the stale one grantable. The sync (server/db/seed-core.ts
 * `seedPermissions`, run at start and whenever the dev watch changes the tree) now removes a page
 * row the tree no longer has when another key of the tree holds its route and its key is not
 * published with the schemas; published keys and rows of routes no page holds stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flattenManifest, type ManifestNode, type ModuleManifest } from '../../src/contract/permission-manifest.js';
import { seedPermissions } from '../../server/db/seed-core.js';
import { diskPermissionTree } from '../../server/schemas/permission-tree.js';
import { startServer, type TestServer } from './harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s?.close();
});

const KEY = 'text.shop.list';
const TYPO = 'text.shop.lits';

/** The disk tree with the shop list page's key replaced (as a page declaring `newPermission` under the dev watch would). */
function treeWithKey(key: string): ModuleManifest[] {
  const tree = structuredClone(diskPermissionTree());
  const rename = (nodes: ManifestNode[] | undefined) => {
    for (const n of nodes ?? []) {
      if (n.key === KEY) n.key = key;
      rename(n.children);
    }
  };
  for (const m of tree) rename(m.menus);
  return tree;
}

const rows = async (route: string) =>
  (await s.db.query<{ permission_key: string }>(`SELECT permission_key FROM permissions WHERE frontend_route = $1 AND permission_type = 2 ORDER BY permission_key`, [route])).rows.map(
    (r) => r.permission_key,
  );

describe('permission rows of a page key declared new and reverted', () => {
  it('keeps the published key while the new one is served, and removes the new one (and its grants) after the revert', async () => {
    const entry = flattenManifest(diskPermissionTree()).find((e) => e.module === 'intelligent_text' && e.node.key === KEY);
    expect(entry?.path).toBeTruthy();
    const route = entry!.path!;
    expect(await rows(route)).toEqual([KEY]);

    await s.db.tx((q) => seedPermissions(q, treeWithKey(TYPO)));
    // the published key stays while the page is served under the new one: roles keep their grants
    expect(await rows(route)).toEqual([TYPO, KEY].sort());
    const op = await s.loginWithKeys([`intelligent_text.${TYPO}`]);
    const granted = await s.db.query('SELECT 1 FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = $1', [op.roleId]);
    expect(granted.rows.length).toBe(1);

    await s.db.tx((q) => seedPermissions(q, diskPermissionTree()));
    expect(await rows(route)).toEqual([KEY]);
    const left = await s.db.query('SELECT 1 FROM role_permissions WHERE role_id = $1', [op.roleId]);
    expect(left.rows.length).toBe(0);
  });

  it('leaves a row of a route no page holds (made through the API) alone', async () => {
    const admin = await s.login();
    const parent = (await s.db.query<{ id: number }>(`SELECT id FROM permissions WHERE module = 'intelligent_text' AND permission_type = 4`)).rows[0].id;
    const r = await admin.post('permission/create', {
      pid: parent,
      module: 'intelligent_text',
      permission_key: 'text.custom.page',
      permission_name: '自定义页',
      permission_name_en: 'Custom page',
      permission_type: 2,
      frontend_route: '/intelligent_text/custom/page',
    });
    expect(r.body.code, JSON.stringify(r.body)).toBe(10000);
    await s.db.tx((q) => seedPermissions(q, diskPermissionTree()));
    expect(await rows('/intelligent_text/custom/page')).toEqual(['text.custom.page']);
  });
});
