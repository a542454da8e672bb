/**
 * Menus built on the client from the route configuration (spec section 1): the side menu of
 * one module leaves out hidden entries, entries the user may not open and empty groups.
 * (Which modules and pages an account may enter — accessibleModules, moduleEntryPath, openPages —
 * is in src/runtime/route-config.ts, since the homes in src/screens need it too.)
 */
import { canOpenRoute, type AccessState } from '../../contract/access.js';
import type { Locale } from '../settings/store.js';
import type { ModuleRoutes, RouteEntry } from '../../runtime/route-config.js';

export interface MenuNode {
  /** canonical path for pages, manifest key for groups */
  key: string;
  label: string;
  /** the manifest key (pages too), which names the entry's icon (menu-icons.tsx) */
  entry: string;
  /** the icon name the entry's schema gives it (`menu.icon`) */
  icon?: string;
  path?: string;
  children?: MenuNode[];
}

export function buildMenu(m: ModuleRoutes, access: AccessState, locale: Locale): MenuNode[] {
  const toNode = (e: RouteEntry): MenuNode | null => {
    if (e.hidden) return null;
    if (e.path) return canOpenRoute(access, e) ? { key: e.path, label: e.title[locale], entry: e.key, ...(e.icon ? { icon: e.icon } : {}), path: e.path } : null;
    const children = e.children.map(toNode).filter((n): n is MenuNode => n !== null);
    return children.length ? { key: e.key, label: e.title[locale], entry: e.key, children } : null;
  };
  return m.menus.map(toNode).filter((n): n is MenuNode => n !== null);
}

/** Menu selection for a pathname: the entry itself or, for a hidden page, its nearest visible ancestor. */
export function selectedMenu(m: ModuleRoutes, pattern: string | undefined): { selected?: string; open: string[] } {
  if (!pattern) return { open: [] };
  const trail: RouteEntry[] = [];
  const find = (e: RouteEntry, stack: RouteEntry[]): boolean => {
    if (e.path === pattern || e.aliases.includes(pattern)) {
      trail.push(...stack, e);
      return true;
    }
    return e.children.some((c) => find(c, [...stack, e]));
  };
  m.menus.some((e) => find(e, []));
  const visible = trail.filter((e) => !e.hidden);
  const page = [...visible].reverse().find((e) => e.path);
  return { selected: page?.path, open: visible.filter((e) => !e.path).map((e) => e.key) };
}
