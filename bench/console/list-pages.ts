/** The menu's list pages (navigation.bench.ts, menu-click.ts): shared below both, so neither imports the other. */
import fs from 'node:fs';
import path from 'node:path';
import { flattenManifest } from '../../src/contract/permission-manifest.js';
import { kindOf } from '../../server/schemas/defaults.js';
import { diskPermissionTree } from '../../server/schemas/permission-tree.js';

export interface ListPage {
  path: string;
  key: string;
  title: string;
  schema: string;
}

/** The menu's list pages, in menu order. */
export function menuListPages(root: string): ListPage[] {
  const kinds = new Map<string, { id: string; kind: string }>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.json')) {
        const s = JSON.parse(fs.readFileSync(p, 'utf8')) as { id?: string; kind?: string; routes?: string[] };
        // a page may leave its kind to its $schema (server/schemas/defaults.ts)
        for (const r of s.routes ?? []) kinds.set(r, { id: s.id ?? p, kind: kindOf(s) ?? '' });
      }
    }
  };
  walk(path.join(root, 'schemas/pages'));
  return flattenManifest(diskPermissionTree())
    .filter((e) => e.node.type === 2 && !e.node.hidden && e.path && kinds.get(e.path)?.kind === 'list')
    .map((e) => ({ path: e.path!, key: `${e.module}.${e.node.key}`, title: e.node.title['en-US'], schema: kinds.get(e.path!)!.id }));
}

