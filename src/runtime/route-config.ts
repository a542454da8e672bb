/**
 * The route configuration of spec section 2, built from the permission tree (the manifest plus
 * the schemas' menu pages, as the server derives it: ./permission-tree.ts; never retyped). Every entry has a path (menu groups excepted: they are not routable), an
 * optional page reference, an auth flag, children, a hidden flag and its module; menu
 * entries inherit their module and get the permission key `module.key`.
 *
 * It lives in the runtime (not the console shell) because screens read it too (the homes list
 * modules and pages): the shell builds its routes with page components (console/routes/pages.ts
 * `useRoutes`), screens read `useRouteTree()`, the same tree without components, so no screen
 * imports the shell.
 */
import { useMemo, type ComponentType, type LazyExoticComponent } from 'react';
import { canOpenRoute, hasModuleAccess, type AccessState } from '../contract/access.js';
import {
  PermissionType,
  UNAUTH_COMMON,
  type ManifestNode,
  type ModuleManifest,
  type ModuleName,
  type Title,
} from '../contract/permission-manifest.js';
import { usePermissionTree } from './permission-tree.js';
import { matchRoute } from './routes.js';

/** Props every routed page receives: the canonical route path and the URL params. */
export interface PageProps {
  path: string;
  params: Record<string, string>;
}

export type PageComponent = LazyExoticComponent<ComponentType<PageProps>> | ComponentType<PageProps>;

export type RouteModule = ModuleName | typeof UNAUTH_COMMON;

export interface RouteEntry {
  /** manifest key (unique within its module) */
  key: string;
  /** absolute canonical path, e.g. /intelligent_text/shop/list; absent for menu groups */
  path?: string;
  /** other absolute paths that open the same page */
  aliases: string[];
  module: RouteModule;
  /** flattened key `module.key` */
  permissionKey: string;
  auth: boolean;
  hidden: boolean;
  /** manifest node type: menu group, page, … */
  type: number;
  title: Title;
  /** antd icon name the entry's schema gives it (`menu.icon`), else the menu's own by key */
  icon?: string;
  /** resolved page component; absent for menu groups */
  page?: PageComponent;
  children: RouteEntry[];
}

/** Picks the page component for a manifest page; the shell passes its resolver in. */
export type PageResolver = (module: ModuleName, node: ManifestNode, path: string) => PageComponent | undefined;

function toEntry(module: ModuleName, node: ManifestNode, resolve: PageResolver): RouteEntry | null {
  if (node.type === PermissionType.BUTTON) return null;
  const path = node.route ? `/${module}/${node.route}` : undefined;
  const children = (node.children ?? [])
    .map((c) => toEntry(module, c, resolve))
    .filter((c): c is RouteEntry => c !== null);
  return {
    key: node.key,
    path,
    aliases: (node.aliases ?? []).map((a) => `/${module}/${a}`),
    module,
    permissionKey: `${module}.${node.key}`,
    auth: true,
    hidden: Boolean(node.hidden),
    type: node.type,
    title: node.title,
    ...(node.icon ? { icon: node.icon } : {}),
    page: path ? resolve(module, node, path) : undefined,
    children,
  };
}

export interface ModuleRoutes {
  module: ModuleName;
  title: Title;
  home: RouteEntry;
  menus: RouteEntry[];
}

export function buildRouteConfig(resolve: PageResolver, manifest: readonly ModuleManifest[]): ModuleRoutes[] {
  return manifest.map((m) => ({
    module: m.module,
    title: m.title,
    home: toEntry(m.module, m.home, resolve) as RouteEntry,
    menus: m.menus.map((n) => toEntry(m.module, n, resolve)).filter((e): e is RouteEntry => e !== null),
  }));
}

/** Every entry, depth first (homes first within a module). */
export function flattenRoutes(config: ModuleRoutes[]): RouteEntry[] {
  const out: RouteEntry[] = [];
  const walk = (e: RouteEntry) => {
    out.push(e);
    e.children.forEach(walk);
  };
  for (const m of config) {
    walk(m.home);
    m.menus.forEach(walk);
  }
  return out;
}

/** Every routable path (canonical and aliases) with its entry. Pages reused in two menus keep the first. */
export function routablePaths(config: ModuleRoutes[]): Array<{ path: string; entry: RouteEntry }> {
  const seen = new Set<string>();
  const out: Array<{ path: string; entry: RouteEntry }> = [];
  for (const entry of flattenRoutes(config)) {
    for (const path of [entry.path, ...entry.aliases]) {
      if (!path || seen.has(path)) continue;
      seen.add(path);
      out.push({ path, entry });
    }
  }
  return out;
}

/** Looks a route up by a concrete path (params filled in) or by its pattern; static paths win. */
export function findRoute(
  config: ModuleRoutes[],
  pathname: string,
): { entry: RouteEntry; params: Record<string, string> } | null {
  const all = routablePaths(config);
  const exact = all.find((r) => r.path === pathname);
  if (exact) return { entry: exact.entry, params: {} };
  for (const r of all) {
    const params = matchRoute(r.path, pathname);
    if (params) return { entry: r.entry, params };
  }
  return null;
}

/** First route of a module the user may open: its home, else the first visible menu page. */
export function firstOpenRoute(m: ModuleRoutes, allowed: (e: RouteEntry) => boolean): RouteEntry | null {
  if (allowed(m.home)) return m.home;
  const pages = flattenRoutes([m]).filter((e) => e.path && !e.hidden && !e.path.includes(':'));
  return pages.find(allowed) ?? null;
}

/** The route tree without page components (titles, paths, permission keys): what screens read. */
export function useRouteTree(): ModuleRoutes[] {
  const tree = usePermissionTree();
  return useMemo(() => buildRouteConfig(() => undefined, tree), [tree]);
}

/** The modules this account may enter. */
export function accessibleModules(config: ModuleRoutes[], access: AccessState): ModuleRoutes[] {
  return config.filter((m) => hasModuleAccess(access, m.module));
}

/** Where the module switcher goes: the module home when allowed, else its first page the user may open. */
export function moduleEntryPath(m: ModuleRoutes, access: AccessState): string | undefined {
  return firstOpenRoute(m, (e) => canOpenRoute(access, e))?.path;
}

/** Visible pages of a module the user may open (module home quick links). */
export function openPages(m: ModuleRoutes, access: AccessState): RouteEntry[] {
  return flattenRoutes([m]).filter((e) => e.path && !e.hidden && e !== m.home && canOpenRoute(access, e));
}

/**
 * Where a path that is only a prefix of pages goes instead of 404 (issue 26): a module's root
 * (`/intelligent_text`) to its home, a folder of pages (`/intelligent_text/session`) to its
 * first menu page (not hidden, no `:param`). Paths that are pages themselves are left alone.
 */
export function rootRedirects(config: ModuleRoutes[]): Array<{ from: string; to: string }> {
  const all = routablePaths(config);
  const routable = new Set(all.map((r) => r.path));
  const out = new Map<string, string>();
  for (const m of config) {
    if (m.home.path && !routable.has(`/${m.module}`)) out.set(`/${m.module}`, m.home.path);
  }
  for (const { path, entry } of all) {
    if (entry.hidden || path.includes(':')) continue;
    const parts = path.split('/').filter(Boolean);
    for (let i = 2; i < parts.length; i++) {
      const prefix = `/${parts.slice(0, i).join('/')}`;
      if (!routable.has(prefix) && !out.has(prefix)) out.set(prefix, path);
    }
  }
  return [...out].map(([from, to]) => ({ from, to }));
}
