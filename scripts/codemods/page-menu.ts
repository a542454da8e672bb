/**
 * Codemod of issue 11, "one file per simple page": writes each menu page's `menu` entry
 * ({ group, order, icon?, aliases? }) into its page schema, from the permission manifest as it
 * was before the move (git commit BEFORE, read with `git show`), and raises the file's `version`.
 *
 *   node --import tsx scripts/codemods/page-menu.ts           # write
 *   node --import tsx scripts/codemods/page-menu.ts --check   # list what it would change, exit 1 if anything
 *
 * Idempotent: a schema whose `menu` already equals the wanted one is left alone (no version
 * bump); a schema with a different `menu` is rewritten. Edits are line edits near the header:
 * one `"menu": {…},` line right after the top-level `"permission"` line, and the `"version"`
 * line — nothing else of the file moves, so it can be re-run on a schema body rewritten
 * elsewhere (after a merge conflict, take the other side's schema files and re-run this).
 *
 * A manifest page becomes a schema page when it is a visible page directly under a menu group
 * and a list, detail or tabs schema has its key as `permission` and its route as first `routes`
 * entry. The manifest (src/contract/permission-manifest.ts) no longer lists those pages: their
 * buttons and hidden pages moved to `pageChildren` (done once, by hand, in the same commit).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ManifestNode, ModuleManifest } from '../../src/contract/permission-manifest.js';

/** The last commit whose manifest lists every menu page (before issue 11's move). */
export const BEFORE = '472e2c1';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The menu icons the console drew by manifest key before the move (src/console/layout/menu-icons.tsx MENU_ICONS). */
function oldIcons(): Record<string, string> {
  const text = execFileSync('git', ['show', `${BEFORE}:src/console/layout/menu-icons.tsx`], { cwd: ROOT, encoding: 'utf8' });
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^\s*'([a-z_.]+)': '([A-Za-z]+Outlined)',$/gm)) out[m[1]] = m[2];
  return out;
}

async function oldManifest(): Promise<ModuleManifest[]> {
  const text = execFileSync('git', ['show', `${BEFORE}:src/contract/permission-manifest.ts`], { cwd: ROOT, encoding: 'utf8' });
  const dir = mkdtempSync(path.join(tmpdir(), 'page-menu-'));
  try {
    const file = path.join(dir, 'manifest.ts');
    writeFileSync(file, text);
    return ((await import(pathToFileURL(file).href)) as { MANIFEST: ModuleManifest[] }).MANIFEST;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Wanted {
  permission: string;
  route: string;
  menu: { group: string; order: number; icon?: string; aliases?: string[] };
}

/** Visible pages directly under a menu group, with the menu entry their schema should carry. */
export function wantedMenus(manifest: ModuleManifest[], icons: Record<string, string>): Wanted[] {
  const out: Wanted[] = [];
  for (const m of manifest) {
    for (const g of m.menus) {
      (g.children ?? []).forEach((n: ManifestNode, i) => {
        if (n.type !== 2 || n.hidden || !n.route) return;
        out.push({
          permission: `${m.module}.${n.key}`,
          route: `/${m.module}/${n.route}`,
          menu: {
            group: g.key,
            order: (i + 1) * 10,
            ...(icons[n.key] ? { icon: icons[n.key] } : {}),
            ...(n.aliases?.length ? { aliases: n.aliases.map((a) => `/${m.module}/${a}`) } : {}),
          },
        });
      });
    }
  }
  return out;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.json') ? [path.join(dir, e.name)] : [],
  );
}

const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));

/** The file's text with `menu` set (one line after the top-level "permission") and `version` raised; null when nothing changes. */
export function applyMenu(text: string, menu: Wanted['menu']): string | null {
  const doc = JSON.parse(text) as { menu?: unknown; version: number };
  if (doc.menu !== undefined && canonical(doc.menu) === canonical(menu)) return null;
  const lines = text.split('\n');
  const line = `  "menu": ${JSON.stringify(menu).replace(/,"/g, ', "').replace(/":/g, '": ').replace(/^\{/, '{ ').replace(/\}$/, ' }')},`;
  const existing = lines.findIndex((l) => /^ {2}"menu": \{.*\},?$/.test(l));
  if (doc.menu !== undefined) {
    if (existing < 0) throw new Error('a multi-line "menu" entry: rewrite it by hand or put it on one line');
    lines[existing] = line;
  } else {
    const at = lines.findIndex((l) => /^ {2}"permission": /.test(l));
    if (at < 0) throw new Error('no top-level "permission" line');
    if (!lines[at].trimEnd().endsWith(',')) throw new Error('the "permission" line is the last property');
    lines.splice(at + 1, 0, line);
  }
  const v = lines.findIndex((l) => /^ {2}"version": \d+,$/.test(l));
  if (v < 0) throw new Error('no top-level "version" line');
  lines[v] = `  "version": ${doc.version + 1},`;
  const out = lines.join('\n');
  JSON.parse(out); // still JSON
  return out;
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const wanted = wantedMenus(await oldManifest(), oldIcons());
  const schemas = files(path.join(ROOT, 'schemas', 'pages')).map((f) => ({ f, doc: JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown> }));
  let changed = 0;
  for (const w of wanted) {
    const hits = schemas.filter(
      (s) => ['list', 'detail', 'tabs'].includes(String(s.doc.kind)) && s.doc.permission === w.permission && Array.isArray(s.doc.routes) && s.doc.routes[0] === w.route,
    );
    if (hits.length !== 1) {
      console.log(`stays in the manifest: ${w.permission} (${w.route}): ${hits.length ? 'several schemas' : 'no list/detail/tabs schema with this permission and first route'}`);
      continue;
    }
    const rel = path.relative(ROOT, hits[0].f);
    const next = applyMenu(readFileSync(hits[0].f, 'utf8'), w.menu);
    if (next === null) continue;
    changed++;
    console.log(`${check ? 'would write' : 'wrote'} ${rel}: menu ${JSON.stringify(w.menu)}`);
    if (!check) writeFileSync(hits[0].f, next);
  }
  console.log(`${changed} schema(s) ${check ? 'to change' : 'changed'}`);
  return check && changed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(2);
    },
  );
}
