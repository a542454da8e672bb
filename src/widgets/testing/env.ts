/** A fake RuntimeEnv for tests: translations from the real locale files, spies for side effects. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { HttpPort, RuntimeEnv } from '../../runtime/env.js';

type Tree = { [k: string]: string | Tree };

export function loadLocale(root: string, lng: 'zh-CN' | 'en-US'): Tree {
  const dir = join(root, 'src', 'locales', lng);
  const out: Tree = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    out[f.replace(/\.json$/, '')] = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Tree;
  }
  return out;
}

export function lookup(tree: Tree, key: string): string | undefined {
  let cur: string | Tree | undefined = tree;
  for (const seg of key.split('.')) {
    if (!cur || typeof cur === 'string') return undefined;
    cur = cur[seg];
  }
  return typeof cur === 'string' ? cur : undefined;
}

export interface FakeEnv extends RuntimeEnv {
  missing: Set<string>;
}

export function createFakeEnv(http: HttpPort, opts: { root: string; locale?: 'zh-CN' | 'en-US'; can?: (k: string) => boolean; devMode?: boolean }): FakeEnv {
  const locale = opts.locale ?? 'en-US';
  const tree = loadLocale(opts.root, locale);
  const missing = new Set<string>();
  return {
    http,
    missing,
    notify: { success: vi.fn(), error: vi.fn(), info: vi.fn() },
    confirm: vi.fn(async () => true),
    navigate: vi.fn(),
    t: (key, vars) => {
      const text = lookup(tree, key);
      if (text === undefined) {
        missing.add(key);
        return key;
      }
      return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, k: string) => String(vars?.[k] ?? ''));
    },
    can: opts.can ?? (() => true),
    locale,
    devMode: opts.devMode ?? false,
  };
}
