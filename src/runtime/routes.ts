/** Route patterns (`/a/b/:id`) against concrete paths; static routes win over patterns. */
import type { SchemaListItem } from './types.js';

export function matchRoute(pattern: string, pathname: string): Record<string, string> | null {
  const a = pattern.split('/').filter(Boolean);
  const b = pathname.split('/').filter(Boolean);
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(':')) params[a[i].slice(1)] = decodeURIComponent(b[i]);
    else if (a[i] !== b[i]) return null;
  }
  return params;
}

export interface RouteHit {
  item: SchemaListItem;
  route: string;
  params: Record<string, string>;
}

/** The schema whose route matches `pathname` (a pattern itself also matches exactly). */
export function findSchemaByRoute(items: readonly SchemaListItem[], pathname: string): RouteHit | null {
  let best: (RouteHit & { dyn: number }) | null = null;
  for (const item of items) {
    for (const route of item.routes ?? []) {
      if (route === pathname) return { item, route, params: {} };
      const params = matchRoute(route, pathname);
      if (!params) continue;
      const dyn = Object.keys(params).length;
      if (!best || dyn < best.dyn) best = { item, route, params, dyn };
    }
  }
  return best && { item: best.item, route: best.route, params: best.params };
}
