/**
 * "Every menu route has a page" (issue 11): each routed page of the permission manifest that is
 * not a module home or a bespoke screen (BESPOKE_PAGE_KEYS) must be declared in the `routes`
 * (or a form's `modes.*.route`) of some schema, or the console shows "no page configured for
 * this route". Run by `schemas:check` and by the dev watch.
 *
 * Matching follows the client: the console opens a page by its canonical route pattern (an
 * alias opens the same page under the canonical path, src/console/routes/Guarded.tsx), and the
 * runtime matches schema routes segment by segment with `:param` segments matching anything
 * (src/runtime/routes.ts) — so `/x/edit/:id` is covered by a schema route `/x/edit/:id` (or
 * `/x/edit/:roleId`), and a schema that declares only an alias does not cover the page.
 */
import { derivePermissionTree, treeTranslate } from '../../src/contract/page-menu.js';
import { BESPOKE_PAGE_KEYS, MANIFEST, allPermissionKeys, flattenManifest, type ModuleManifest } from '../../src/contract/permission-manifest.js';
import type { SchemaProblem } from './problems.js';
import type { ParsedSchema } from './validate.js';

export interface MenuPageRoute {
  /** absolute canonical route pattern, e.g. /admin_center/authCenter/role/edit/:id */
  route: string;
  /** flattened manifest key (`module.key`) */
  key: string;
  /** absolute alias routes of the same page */
  aliases?: string[];
}

export const MANIFEST_FILE = 'src/contract/permission-manifest.ts';

/** Routed manifest pages that must open a schema page: all but module homes and bespoke screens. */
export function menuPageRoutes(manifest: ModuleManifest[]): MenuPageRoute[] {
  const bespoke = new Set<string>(BESPOKE_PAGE_KEYS);
  return flattenManifest(manifest)
    .filter((e) => e.path && e.node.route !== 'home' && !bespoke.has(`${e.module}.${e.node.key}`))
    .map((e) => ({
      route: e.path!,
      key: `${e.module}.${e.node.key}`,
      aliases: (e.node.aliases ?? []).map((a) => `/${e.module}/${a}`),
    }));
}

/** Does a schema route match a page's route pattern as the runtime would (`:param` segments match anything)? */
export function routeCovers(schemaRoute: string, pageRoute: string): boolean {
  if (schemaRoute === pageRoute) return true;
  const a = schemaRoute.split('/').filter(Boolean);
  const b = pageRoute.split('/').filter(Boolean);
  return a.length === b.length && a.every((seg, i) => seg.startsWith(':') || seg === b[i]);
}

/**
 * One problem per manifest page no schema declares, reported on the manifest (no schema file is
 * at fault). While some schema file is invalid (`brokenIds` not empty) nothing is reported: the
 * broken file may be the one declaring the route, and it is reported itself.
 */
export function checkMenuPages(
  schemas: readonly ParsedSchema[],
  pages: readonly MenuPageRoute[],
  brokenIds: ReadonlySet<string> = new Set(),
): SchemaProblem[] {
  if (brokenIds.size) return [];
  const declared = [...new Set(schemas.flatMap((s) => s.routes))];
  const problems: SchemaProblem[] = [];
  for (const p of pages) {
    if (declared.some((r) => routeCovers(r, p.route))) continue;
    const viaAlias = (p.aliases ?? []).find((a) => declared.some((r) => routeCovers(r, a)));
    problems.push({
      file: MANIFEST_FILE,
      pointer: `/${p.key}`,
      reason: viaAlias
        ? `route "${p.route}" (${p.key}) has no page: a schema declares its alias "${viaAlias}", but the console opens the page by its canonical route — declare "${p.route}"`
        : `route "${p.route}" (${p.key}) has no page: no schema declares it in "routes" and it is not a bespoke screen`,
    });
  }
  return problems;
}

/** Every absolute route of a manifest, aliases included. */
export function manifestRouteSet(manifest: ModuleManifest[]): Set<string> {
  const out = new Set<string>();
  for (const e of flattenManifest(manifest)) {
    if (e.path) out.add(e.path);
    for (const a of e.node.aliases ?? []) out.add(`/${e.module}/${a}`);
  }
  return out;
}

/**
 * What the checks compare schemas with, from the permission tree derived from `schemas` (their
 * `menu` pages put into the static manifest, titles from `locales`): permission keys, manifest
 * routes, the routed pages that need a schema, and the derivation's own problems (unknown menu
 * group or icon, a route or key declared twice, pageChildren without a page).
 */
export function derivedInputs(
  schemas: readonly ParsedSchema[],
  locales: Record<string, unknown>,
  staticManifest: readonly ModuleManifest[] = MANIFEST,
): { permissionKeys: Set<string>; manifestRoutes: Set<string>; pageRoutes: MenuPageRoute[]; problems: SchemaProblem[] } {
  const { manifest, problems } = derivePermissionTree(staticManifest, schemas, treeTranslate(locales));
  return {
    permissionKeys: allPermissionKeys(manifest),
    manifestRoutes: manifestRouteSet(manifest),
    pageRoutes: menuPageRoutes(manifest),
    problems,
  };
}
