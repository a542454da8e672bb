import { describe, expect, it } from 'vitest';
import { BESPOKE_PAGE_KEYS, MANIFEST, type ModuleManifest } from '../../src/contract/permission-manifest.js';
import { checkMenuPages, derivedInputs, menuPageRoutes, routeCovers } from './menu-pages.js';
import type { ParsedSchema } from './validate.js';

const schema = (id: string, routes: string[]): ParsedSchema => ({
  file: `schemas/pages/${id}.json`,
  id,
  kind: 'list',
  version: 1,
  schemaVersion: 1,
  hash: id,
  routes,
  doc: {},
});

const t = { 'zh-CN': 'x', 'en-US': 'x' };
const manifest: ModuleManifest[] = [
  {
    module: 'admin_center',
    title: t,
    home: { key: 'admin_home', type: 2, title: t, route: 'home', hidden: true },
    menus: [
      {
        key: 'demo',
        type: 1,
        title: t,
        children: [
          {
            key: 'demo.item',
            type: 2,
            title: t,
            route: 'demo/items',
            aliases: ['items'],
            children: [
              { key: 'demo.item.edit', type: 2, title: t, route: 'demo/items/edit/:id', hidden: true },
              { key: 'demo.item.delete', type: 3, title: t },
            ],
          },
        ],
      },
    ],
  },
];

describe('menuPageRoutes', () => {
  it('lists routed pages with their aliases, without module homes and buttons', () => {
    expect(menuPageRoutes(manifest)).toEqual([
      { route: '/admin_center/demo/items', key: 'admin_center.demo.item', aliases: ['/admin_center/items'] },
      { route: '/admin_center/demo/items/edit/:id', key: 'admin_center.demo.item.edit', aliases: [] },
    ]);
  });

  it('leaves out the bespoke screens of the project manifest', () => {
    const keys = new Set(menuPageRoutes(MANIFEST).map((p) => p.key));
    for (const k of BESPOKE_PAGE_KEYS) expect(keys.has(k)).toBe(false);
    expect([...keys].some((k) => k.endsWith('_home'))).toBe(false);
  });
});

describe('checkMenuPages', () => {
  const pages = menuPageRoutes(manifest);

  it('passes when every page route is declared (a `:param` of another name matches too)', () => {
    expect(checkMenuPages([schema('list', ['/admin_center/demo/items']), schema('form', ['/admin_center/demo/items/edit/:itemId'])], pages)).toEqual([]);
  });

  it('reports a page no schema declares, on the manifest', () => {
    expect(checkMenuPages([schema('list', ['/admin_center/demo/items'])], pages)).toEqual([
      {
        file: 'src/contract/permission-manifest.ts',
        pointer: '/admin_center.demo.item.edit',
        reason:
          'route "/admin_center/demo/items/edit/:id" (admin_center.demo.item.edit) has no page: no schema declares it in "routes" and it is not a bespoke screen',
      },
    ]);
  });

  it('does not count a concrete path for a `:id` route, and says when only an alias is declared', () => {
    const problems = checkMenuPages([schema('list', ['/admin_center/items']), schema('form', ['/admin_center/demo/items/edit/new'])], pages);
    expect(problems.map((p) => p.pointer)).toEqual(['/admin_center.demo.item', '/admin_center.demo.item.edit']);
    expect(problems[0].reason).toContain('a schema declares its alias "/admin_center/items", but the console opens the page by its canonical route');
  });

  it('reports nothing while some schema file is invalid (it may be the one declaring the route)', () => {
    expect(checkMenuPages([], pages, new Set(['broken']))).toEqual([]);
  });

  it('matches routes segment by segment like the runtime', () => {
    expect(routeCovers('/a/b/:id', '/a/b/:id')).toBe(true);
    expect(routeCovers('/a/:x/c', '/a/b/c')).toBe(true);
    expect(routeCovers('/a/b', '/a/b/c')).toBe(false);
    expect(routeCovers('/a/b/new', '/a/b/:id')).toBe(false);
  });

  it('derives the menu pages schemas declare: their keys and routes join the tree, their hidden children need a page', () => {
    const page = (file: string, route: string, permission: string, menu: Record<string, unknown>): ParsedSchema => ({
      file,
      id: file,
      kind: 'list',
      version: 1,
      schemaVersion: 1,
      hash: file,
      routes: [route],
      module: 'admin_center',
      permission,
      doc: { kind: 'list', module: 'admin_center', routes: [route], permission, title: 'admin.x.title', menu },
    });
    const locales = { 'zh-CN': { admin: { x: { title: '某页' } } }, 'en-US': { admin: { x: { title: 'A page' } } } };
    const ok = derivedInputs([page('a.json', '/admin_center/system/calls', 'admin_center.admin.calls', { group: 'admin.system', order: 5 })], locales);
    expect(ok.permissionKeys.has('admin_center.admin.calls')).toBe(true);
    expect(ok.manifestRoutes.has('/admin_center/system/calls')).toBe(true);
    // without the role page's schema, its hidden pages (pageChildren) report "has no page"
    expect(ok.pageRoutes.some((p) => p.key === 'admin_center.admin.permission.role.update')).toBe(false);
    expect(ok.problems.some((p) => p.pointer === '/admin_center.admin.permission.role' && p.reason.includes('pageChildren'))).toBe(true);
    const bad = derivedInputs(
      [
        page('a.json', '/admin_center/system/calls', 'admin_center.admin.calls', { group: 'admin.nope', order: 5 }),
        page('b.json', '/admin_center/system/jobs2', 'admin_center.admin.jobs2', { group: 'admin.system', order: 5, icon: 'NopeOutlined' }),
      ],
      locales,
    ).problems.map((p) => `${p.file}#${p.pointer}`);
    expect(bad).toEqual(expect.arrayContaining(['a.json#/menu/group', 'b.json#/menu/icon']));
  });
});
