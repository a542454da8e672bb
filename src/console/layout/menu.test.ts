import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAccess, type PermissionRecord } from '../../contract/access.js';
import { accessibleModules, buildRouteConfig, moduleEntryPath, type PageProps } from '../../runtime/route-config.js';
import { buildMenu, selectedMenu } from './menu.js';
import { diskPermissionTree } from '../../../server/schemas/permission-tree.js';
import { MENU_ICONS } from './menu-icons.js';
import { MENU_ICON_NAMES } from '../../contract/menu-icons.js';

const config = buildRouteConfig(() => (_: PageProps) => null, diskPermissionTree());
const text = config.find((m) => m.module === 'intelligent_text')!;
const p = (module: string, permission_key: string): PermissionRecord => ({ id: 1, pid: 0, module, permission_key });

describe('side menu', () => {
  it('leaves out hidden entries, entries the user may not open and empty groups', () => {
    const access = buildAccess([p('intelligent_text', 'text.shop.list'), p('intelligent_text', 'text.shop.session_category')], []);
    const menu = buildMenu(text, access, 'en-US');
    expect(menu).toEqual([
      {
        key: 'text.shop',
        label: 'Shops and customers',
        entry: 'text.shop',
        children: [{ key: '/intelligent_text/shop/list', label: 'Shops', entry: 'text.shop.list', icon: 'BankOutlined', path: '/intelligent_text/shop/list' }],
      },
    ]);
    expect(accessibleModules(config, access).map((m) => m.module)).toEqual(['intelligent_text']);
    expect(moduleEntryPath(text, access)).toBe('/intelligent_text/shop/list');
  });

  it('shows every visible entry to a super admin, in both locales', () => {
    const access = buildAccess([], [{ is_super_admin: true }]);
    const zh = buildMenu(text, access, 'zh-CN');
    expect(zh[0].label).toBe('话术管理');
    expect(zh.flatMap((g) => g.children ?? []).some((c) => c.path === '/intelligent_text/shop/sessionCategory')).toBe(false);
    expect(accessibleModules(config, access)).toHaveLength(4);
  });

  it('selects the nearest visible ancestor of a hidden page', () => {
    expect(selectedMenu(text, '/intelligent_text/learn/material/detail/:id')).toEqual({
      selected: '/intelligent_text/learn/material',
      open: ['text.learn'],
    });
  });

  it('gives every menu group its own icon, distinct within a module (the collapsed menu shows them)', () => {
    const access = buildAccess([], [{ is_super_admin: true }]);
    for (const m of config) {
      const menu = buildMenu(m, access, 'en-US');
      // pages without an entry of their own fall back to PAGE_FALLBACK_ICON
      expect(menu.filter((g) => !MENU_ICONS[g.entry]).map((g) => g.entry)).toEqual([]);
      const groupIcons = menu.map((g) => MENU_ICONS[g.entry]);
      expect(new Set(groupIcons).size).toBe(groupIcons.length);
      // every page has an icon: its schema's `menu.icon`, or the manifest's for a bespoke screen
      const pages = menu.flatMap((g) => g.children ?? []);
      expect(pages.filter((p) => !p.icon && !MENU_ICONS[p.entry]).map((p) => p.entry)).toEqual([]);
    }
  });

  it('draws every icon name a schema may give its menu entry (src/contract/menu-icons.ts)', async () => {
    const { ICONS_BY_NAME } = await import('./menu-icon-set.js');
    expect(Object.keys(ICONS_BY_NAME).sort()).toEqual([...MENU_ICON_NAMES].sort());
  });

  it('carries only icons the menu uses: each one is named by a page schema, by MENU_ICONS or is a fallback', async () => {
    const { GROUP_FALLBACK, PAGE_FALLBACK, ICONS_BY_NAME } = await import('./menu-icon-set.js');
    const access = buildAccess([], [{ is_super_admin: true }]);
    const used = new Set<string>(Object.values(MENU_ICONS));
    for (const m of config) for (const g of buildMenu(m, access, 'en-US')) for (const n of [g, ...(g.children ?? [])]) if (n.icon) used.add(n.icon);
    const fallbacks = Object.entries(ICONS_BY_NAME).filter(([, c]) => c === GROUP_FALLBACK || c === PAGE_FALLBACK).map(([name]) => name);
    expect(MENU_ICON_NAMES.filter((name) => !used.has(name) && !fallbacks.includes(name))).toEqual([]);
  });

  it('has the icon sets generated from the schemas as they are now (npx tsx scripts/menu-icons.ts)', async () => {
    const { menuIconFiles, FALLBACKS, MENU_ICON_MODULES_DIR } = await import('../../../scripts/menu-icons.js');
    const files = menuIconFiles();
    expect(readdirSync(MENU_ICON_MODULES_DIR).sort()).toEqual(Object.keys(files).sort());
    for (const [name, text] of Object.entries(files)) expect(readFileSync(path.join(MENU_ICON_MODULES_DIR, name), 'utf8'), name).toBe(text);
    // and every set draws antd's own icon of each name (its SVG definition)
    const { iconDefinition } = await import('../../../scripts/menu-icons.js');
    const { MENU_ICON_SETS } = await import('./menu-icon-modules/index.js');
    for (const [id, load] of Object.entries(MENU_ICON_SETS)) {
      const set = (await load()) as Record<string, { definition?: unknown }>;
      for (const [name, icon] of Object.entries(set)) {
        expect(icon.definition, `${id} ${name}`).toEqual(iconDefinition(name in FALLBACKS ? FALLBACKS[name as keyof typeof FALLBACKS] : name));
      }
      if (!id.includes('/')) expect(Object.keys(set)).toEqual(expect.arrayContaining(['GROUP_FALLBACK', 'PAGE_FALLBACK']));
    }
  });

  it('draws each entry from the set its place loads: the module\'s for the top level, the group\'s (or the module\'s) inside a top-level group', async () => {
    const { MENU_ICON_SETS } = await import('./menu-icon-modules/index.js');
    const access = buildAccess([], [{ is_super_admin: true }]);
    for (const m of config) {
      const top = await MENU_ICON_SETS[m.module]();
      const menu = buildMenu(m, access, 'en-US');
      for (const g of menu) {
        const name = g.icon ?? MENU_ICONS[g.entry];
        if (name) expect(top[name], `${m.module} ${g.entry}`).toBeDefined();
        if (!g.children) continue;
        const own = await MENU_ICON_SETS[`${m.module}/${g.key}`]();
        // a group's set holds only what the module's set lacks
        expect(Object.keys(own).filter((n) => n in top)).toEqual([]);
        const walk = (n: NonNullable<typeof g.children>[number]) => {
          const icon = n.icon ?? MENU_ICONS[n.entry];
          if (icon) expect(own[icon] ?? top[icon], `${m.module} ${n.entry} ${icon}`).toBeDefined();
          n.children?.forEach(walk);
        };
        g.children.forEach(walk);
      }
    }
  });
});
