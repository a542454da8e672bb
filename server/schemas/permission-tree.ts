/**
 * The permission tree the server works with: the hand-written manifest
 * (src/contract/permission-manifest.ts) plus the menu pages the schemas declare (`menu`,
 * src/contract/page-menu.ts), titles read from the locale files beside the schemas
 * (`<root>/src/locales`, root = the parent of the schemas folder).
 *
 * Derived from the schema store, so it follows the dev watch (SCHEMA_WATCH=1): a page file added
 * or changed, or a locale file edited, changes the tree; listeners (the app upserts the
 * permission table, server/db/seed-core.ts `seedPermissions`) hear of it. Before the store is
 * loaded (the seed at start) `diskPermissionTree` reads the schemas folder itself.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { derivePermissionTree, treeTranslate, LOCALES, type DeriveProblem, type PageDoc } from '../../src/contract/page-menu.js';
import { MANIFEST, flattenManifest, type ModuleManifest } from '../../src/contract/permission-manifest.js';
import { kindOf } from './defaults.js';
import { DEFAULT_SCHEMAS_DIR } from './read.js';
import { getSchemaStore } from './store.js';
import type { ParsedSchema } from './validate.js';

/** The locale folder that belongs to a schemas folder. */
export const localesDirFor = (schemasDir: string): string => path.join(path.dirname(schemasDir), 'src', 'locales');

/** Locale trees `{ 'zh-CN': { ns: {…} }, … }` of a locale folder (a missing file or folder: no keys). */
export function readLocaleTrees(dir: string): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const lng of LOCALES) {
    out[lng] = {};
    const d = path.join(dir, lng);
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d).filter((n) => n.endsWith('.json'))) {
      try {
        out[lng][f.slice(0, -5)] = JSON.parse(readFileSync(path.join(d, f), 'utf8')) as unknown;
      } catch {
        // a locale file being written: read again on the next change
      }
    }
  }
  return out;
}

let localesDir = localesDirFor(DEFAULT_SCHEMAS_DIR);
let locales: Record<string, unknown> | null = null;
let localeVersion = 0;

/** Where the titles come from (loadSchemas sets it for the folder it loads). */
export function setPermissionLocalesDir(dir: string): void {
  if (dir === localesDir) return;
  localesDir = dir;
  reloadPermissionLocales();
}

/** Reads the locale files again (the dev watch calls it when one changes). */
export function reloadPermissionLocales(): void {
  locales = null;
  localeVersion++;
}

const localeTrees = () => (locales ??= readLocaleTrees(localesDir));

/** The locale files the titles come from, by locale (served to the console under the dev watch). */
export function permissionLocaleTrees(): Record<string, unknown> {
  return localeTrees();
}

/** The tree of a set of schemas with the current locale files. */
export function permissionTreeOf(schemas: readonly ParsedSchema[], manifest: readonly ModuleManifest[] = MANIFEST): { manifest: ModuleManifest[]; problems: DeriveProblem[] } {
  return derivePermissionTree(manifest, schemas, treeTranslate(localeTrees()));
}

let cache: { fp: string; tree: ModuleManifest[] } | null = null;

/** The tree of the schema store (MANIFEST alone when no schemas are loaded). Cached by the store's content and the locale files. */
export function permissionTree(): ModuleManifest[] {
  let pages: ParsedSchema[];
  try {
    pages = getSchemaStore().pages();
  } catch {
    return permissionTreeOf([]).manifest;
  }
  const fp = `${localeVersion}|${localesDir}|${pages.map((s) => `${s.id}:${s.hash}`).join('|')}`;
  if (cache?.fp !== fp) cache = { fp, tree: permissionTreeOf(pages).manifest };
  return cache.tree;
}

/**
 * The page documents of a schemas folder, read as plain JSON without the meta-schema (a file that
 * does not parse is skipped: the loader and the check report it). Paths relative to the root.
 */
export function rawPageDocs(schemasDir: string): Array<{ file: string; kind: string; doc: PageDoc }> {
  const out: Array<{ file: string; kind: string; doc: PageDoc }> = [];
  const root = path.dirname(schemasDir);
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.name.endsWith('.json')) {
        try {
          const doc = JSON.parse(readFileSync(abs, 'utf8')) as PageDoc;
          // the header's defaults (server/schemas/defaults.ts): the module is the folder under pages/, the kind the one $schema names
          doc.module ??= path.relative(path.join(schemasDir, 'pages'), abs).split(path.sep)[0];
          out.push({ file: path.relative(root, abs).split(path.sep).join('/'), kind: String(kindOf(doc as Record<string, unknown>)), doc });
        } catch {
          // reported by the loader / the check
        }
      }
    }
  };
  walk(path.join(schemasDir, 'pages'));
  return out;
}

/** The tree of a schemas folder read from disk (the seed runs before the store is loaded; schemas:meta lists its keys). */
export function diskPermissionTree(schemasDir: string = DEFAULT_SCHEMAS_DIR): ModuleManifest[] {
  return derivePermissionTree(MANIFEST, rawPageDocs(schemasDir), treeTranslate(readLocaleTrees(localesDirFor(schemasDir)))).manifest;
}

/** A fingerprint of what the permission table holds of a tree (keys, parents, types, routes, titles, order). */
export function treeFingerprint(tree: readonly ModuleManifest[]): string {
  return JSON.stringify([
    tree.map((m) => [m.module, m.title]),
    flattenManifest(tree).map((e) => [e.module, e.parent, e.node.key, e.node.type, e.path ?? '', e.node.title]),
  ]);
}

type Listener = (tree: ModuleManifest[]) => void | Promise<void>;
const listeners = new Set<Listener>();
let lastFingerprint: string | null = null;

/** Called with the new tree whenever it changes (after `notifyPermissionTree`); returns an unsubscribe. */
export function onPermissionTreeChange(fn: Listener): () => void {
  if (lastFingerprint === null) lastFingerprint = treeFingerprint(permissionTree());
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The dev watch calls this after it changed the store or the locale files; listeners run when the tree differs. */
export async function notifyPermissionTree(): Promise<void> {
  if (!listeners.size) return;
  const tree = permissionTree();
  const fp = treeFingerprint(tree);
  if (fp === lastFingerprint) return;
  lastFingerprint = fp;
  for (const fn of listeners) await fn(tree);
}
