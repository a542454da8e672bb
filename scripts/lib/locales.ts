/**
 * Locale trees read from `src/locales/<lng>/<namespace>.json` (a file's content sits under its
 * namespace), and key look-up as i18next resolves it: `admin.role.title` → admin.json
 * {"role":{"title":…}}; `ns:key` is accepted too; plural forms (`_one`, `_other`) count.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export const LOCALES = ['zh-CN', 'en-US'] as const;

type Tree = { [k: string]: unknown };
export type LocaleTrees = Record<string, Tree>;

export async function readLocales(localesDir: string, locales: readonly string[] = LOCALES): Promise<LocaleTrees> {
  const out: LocaleTrees = {};
  for (const lng of locales) {
    const tree: Tree = {};
    let files: string[] = [];
    try {
      files = (await readdir(path.join(localesDir, lng))).filter((f) => f.endsWith('.json'));
    } catch {
      // a missing locale folder: every key is missing there
    }
    for (const f of files) tree[f.slice(0, -5)] = JSON.parse(await readFile(path.join(localesDir, lng, f), 'utf8'));
    out[lng] = tree;
  }
  return out;
}

export function hasKey(tree: Tree, key: string): boolean {
  const [ns, rest] = key.includes(':') ? (key.split(':', 2) as [string, string]) : [null, key];
  const parts = ns ? [ns, ...rest.split('.')] : rest.split('.');
  let cur: unknown = tree;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!cur || typeof cur !== 'object') return false;
    cur = (cur as Tree)[parts[i]];
  }
  if (!cur || typeof cur !== 'object') return false;
  const last = parts[parts.length - 1];
  const node = cur as Tree;
  return typeof node[last] === 'string' || typeof node[`${last}_one`] === 'string' || typeof node[`${last}_other`] === 'string';
}
