/**
 * The permission keys published with the schemas: the editor value list of
 * `<schemas>/meta/list.schema.json`, written by `npm run schemas:meta` and committed. A menu page's
 * own key must be one of them or be declared new by the page (scripts/lib/check-permissions.ts),
 * and a permission row of a published key is never pruned (server/db/seed-core.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { VALUE_DEFS } from '../../schemas/meta/src/to-json.js';
import { DEFAULT_SCHEMAS_DIR } from './read.js';

/** The published keys of a schemas folder; null when its meta file lists none (a fixture with stripped meta files). */
export function publishedKeysOf(schemasDir: string = DEFAULT_SCHEMAS_DIR): Set<string> | null {
  try {
    const meta = JSON.parse(readFileSync(path.join(schemasDir, 'meta', 'list.schema.json'), 'utf8')) as { $defs?: Record<string, { enum?: unknown }> };
    const list = meta.$defs?.[VALUE_DEFS.permissions.def]?.enum;
    return Array.isArray(list) && list.length ? new Set(list.map(String)) : null;
  } catch {
    return null;
  }
}
