/**
 * The real inputs of the schema check, read from the project: widget names, TEXT_KEYS,
 * server routes, permission keys and routes of the manifest. Kept apart from the checks so
 * tests can pass their own.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { renderMetaFiles, type EditorValues } from '../../schemas/meta/src/files.js';
import { renderValidatorFiles } from '../../schemas/meta/src/validators.js';
import { TEXT_KEYS } from '../../schemas/meta/src/index.js';
import { manifestRouteSet, menuPageRoutes } from '../../server/schemas/menu-pages.js';
import { diskPermissionTree, rawPageDocs } from '../../server/schemas/permission-tree.js';
import { MANIFEST, allPermissionKeys } from '../../src/contract/permission-manifest.js';
import type { CheckInputs } from './check.js';
import { declaredNewKey, publishedPermissionKeys } from './check-permissions.js';

/** Widget names: the string array (or set) exported by src/contract/widget-names.ts, minus the unknown-widget box. */
export async function readWidgetNames(): Promise<Set<string>> {
  const names = await exportedNames();
  const mod = (await import('../../src/contract/widget-names.js')) as Record<string, unknown>;
  if (typeof mod.UNKNOWN_WIDGET === 'string') names.delete(mod.UNKNOWN_WIDGET);
  return names;
}

async function exportedNames(): Promise<Set<string>> {
  const mod = (await import('../../src/contract/widget-names.js')) as Record<string, unknown>;
  const preferred = ['WIDGET_NAMES', 'widgetNames', 'default'];
  const keys = [...preferred.filter((k) => k in mod), ...Object.keys(mod).filter((k) => !preferred.includes(k))];
  for (const k of keys) {
    const v = mod[k];
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return new Set(v as string[]);
    if (v instanceof Set) return new Set([...v].map(String));
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const vals = Object.values(v);
      if (vals.length && vals.every((x) => typeof x === 'string')) return new Set(vals as string[]);
    }
  }
  throw new Error('src/contract/widget-names.ts exports no list of widget names');
}

/** `"METHOD path"` of every route under /api/admin/. */
export async function readApiRoutes(): Promise<Set<string>> {
  return new Set((await adminRoutes()).map((r) => `${r.method} ${r.path}`));
}

/** The server's route table (every base). */
export async function allRoutes() {
  const routes = await import('../../server/routes/index.js');
  return routes.allRoutes();
}

async function adminRoutes() {
  return (await allRoutes()).filter((r) => (r.base ?? 'admin') === 'admin');
}

/** The `sort_by` values of every list route under /api/admin/, by `"METHOD path"`. */
export async function readApiSorts(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const r of await adminRoutes()) {
    const by = (r.query as { properties?: { sort_by?: { enum?: string[] } } } | undefined)?.properties?.sort_by?.enum;
    if (by) out.set(`${r.method} ${r.path}`, by);
  }
  return out;
}

/** Absolute routes of the permission tree derived from the schemas under `root` (aliases included). */
export function manifestRoutes(root: string): Set<string> {
  return manifestRouteSet(diskPermissionTree(path.join(root, 'schemas')));
}

/** Routed entries of the derived tree that must open a schema page: all but module homes and bespoke screens (server/schemas/menu-pages.ts). */
export function manifestPageRoutes(root: string) {
  return menuPageRoutes(diskPermissionTree(path.join(root, 'schemas')));
}

/** Enum ids: the files of schemas/enums (without `.json`). */
export async function readEnumIds(root: string): Promise<string[]> {
  return (await readdir(path.join(root, 'schemas', 'enums'))).filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length));
}

/** The value lists the published meta-schemas enumerate for editors (npm run schemas:meta). */
export async function readEditorValues(root: string): Promise<EditorValues> {
  return {
    widgets: [...(await readWidgetNames())],
    enums: await readEnumIds(root),
    // the derived tree's keys: the manifest's and those of the pages the schemas declare
    permissions: publishableKeys(root),
    apis: [...(await readApiRoutes())],
  };
}

/**
 * The keys of the derived tree, less the own key of a menu page that is neither published yet
 * nor declared new by it (`menu.newPermission`): regenerating the meta files must not make a
 * typo a known key (./check-permissions.ts).
 */
function publishableKeys(root: string): string[] {
  const schemasDir = path.join(root, 'schemas');
  const keys = allPermissionKeys(diskPermissionTree(schemasDir));
  const published = publishedPermissionKeys(root);
  if (published) {
    for (const { doc } of rawPageDocs(schemasDir)) {
      const key = doc.permission;
      if (doc.menu && typeof key === 'string' && !published.has(key) && declaredNewKey(doc) !== key) keys.delete(key);
    }
  }
  return [...keys];
}

/** Every file `npm run schemas:meta` writes (path relative to the root → text). */
export async function generatedFiles(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(renderMetaFiles(await readEditorValues(root)))) out[`schemas/meta/${name}`] = text;
  return { ...out, ...renderValidatorFiles() };
}

export async function projectInputs(root: string, base: string | null): Promise<CheckInputs> {
  const apis = await readApiRoutes();
  return {
    root,
    widgets: await readWidgetNames(),
    textKeys: TEXT_KEYS,
    apis,
    generated: await generatedFiles(root),
    sorts: await readApiSorts(),
    // derived again from the schemas the check reads (their `menu` pages); these are the fallbacks
    manifest: MANIFEST,
    permissionKeys: allPermissionKeys(diskPermissionTree(path.join(root, 'schemas'))),
    manifestRoutes: manifestRoutes(root),
    pageRoutes: manifestPageRoutes(root),
    routes: await allRoutes(),
    publishedKeys: publishedPermissionKeys(root),
    similarity: true,
    base,
  };
}
