/**
 * The shape of the permission tree (permission-manifest.ts holds its hand-written part): modules,
 * node types of spec section 3, nodes with titles in both locales, and the flattened keys
 * (`module + "." + key`, spec section 6).
 */
export type ModuleName = 'intelligent_text' | 'intelligent_voice' | 'panda_descendant' | 'admin_center';
export const MODULES: readonly ModuleName[] = ['intelligent_text', 'intelligent_voice', 'panda_descendant', 'admin_center'];
export const UNAUTH_COMMON = 'unauth_common';

/** permission_type values of spec section 3. */
export const PermissionType = { MENU: 1, PAGE: 2, BUTTON: 3, MODULE: 4 } as const;
export type PermissionTypeValue = (typeof PermissionType)[keyof typeof PermissionType];

export interface Title {
  'zh-CN': string;
  'en-US': string;
}

export interface ManifestNode {
  key: string;
  type: PermissionTypeValue;
  title: Title;
  /** route relative to the module, without a leading slash */
  route?: string;
  hidden?: boolean;
  /** other paths (relative to the module) that open the same page */
  aliases?: string[];
  /** position within its menu group (pages derived from schemas carry their `menu.order`) */
  order?: number;
  /** antd icon name of the collapsed side menu (src/contract/menu-icons.ts); pages derived from schemas carry `menu.icon` */
  icon?: string;
  children?: ManifestNode[];
}

export interface ModuleManifest {
  module: ModuleName;
  title: Title;
  home: ManifestNode;
  menus: ManifestNode[];
  /**
   * Buttons and hidden pages of the pages a schema declares (by the page's unflattened key):
   * attached under the derived page node (src/contract/page-menu.ts `deriveManifest`).
   */
  pageChildren?: Record<string, ManifestNode[]>;
}

/** The synthetic common-home permission of spec section 3. */
export const COMMON_HOME = {
  id: -1,
  pid: -1,
  module: UNAUTH_COMMON,
  permission_key: 'common_home',
  permission_name: '首页',
  permission_type: PermissionType.PAGE,
  frontend_route: '/home',
} as const;

export interface FlatManifestEntry {
  module: ModuleName;
  node: ManifestNode;
  /** key of the parent node, or the module name for top-level menus and the home */
  parent: string;
  /** absolute route, e.g. /intelligent_text/shop/list */
  path?: string;
}

/** Every node of the manifest in tree order (module entries are not included: they are the module itself). */
export function flattenManifest(manifest: readonly ModuleManifest[]): FlatManifestEntry[] {
  const out: FlatManifestEntry[] = [];
  const walk = (module: ModuleName, node: ManifestNode, parent: string) => {
    out.push({ module, node, parent, path: node.route ? `/${module}/${node.route}` : undefined });
    for (const child of node.children ?? []) walk(module, child, node.key);
  };
  for (const m of manifest) {
    walk(m.module, m.home, m.module);
    for (const n of m.menus) walk(m.module, n, m.module);
  }
  return out;
}

/** Every flattened permission key (`module.key`), including the module keys themselves. */
export function allPermissionKeys(manifest: readonly ModuleManifest[]): Set<string> {
  const keys = new Set<string>(manifest.map((m) => m.module));
  for (const e of flattenManifest(manifest)) keys.add(`${e.module}.${e.node.key}`);
  return keys;
}
