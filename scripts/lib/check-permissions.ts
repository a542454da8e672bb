/**
 * A menu page's own `permission` key (issue 22): the page declares its key into the permission
 * tree (src/contract/page-menu.ts), so a typo there used to be accepted everywhere — it made a
 * new key (and a new permission row), and roles holding the real key lost the page. Now the key
 * must be one the tree already had, or be declared new by that page:
 *
 *     "permission": "intelligent_text.text.shop.archive",
 *     "menu": { "group": "text.shop", "order": 40, "newPermission": "intelligent_text.text.shop.archive" }
 *
 * "Already had" = the permission keys published in schemas/meta (`npm run schemas:meta` writes
 * them, committed with the schemas; it leaves out a page key that is neither published nor
 * declared new, so regenerating does not make a typo known). Checked by `schemas:check` and by
 * the dev watch alike (scripts/lib/check.ts `checkSchemaSet`).
 */
import path from 'node:path';
import type { SchemaProblem } from '../../server/schemas/problems.js';
import { publishedKeysOf } from '../../server/schemas/published-keys.js';
import type { ParsedSchema } from '../../server/schemas/validate.js';

/** The page doc fields read here. */
interface MenuPage {
  permission?: unknown;
  menu?: unknown;
}

/** The key a page declares new (`menu.newPermission`), if any. */
export const declaredNewKey = (doc: MenuPage): string | undefined => {
  const menu = doc.menu as { newPermission?: unknown } | undefined;
  return menu && typeof menu === 'object' && typeof menu.newPermission === 'string' ? menu.newPermission : undefined;
};

/**
 * The permission keys published in `<root>/schemas/meta/list.schema.json` (the editor value list
 * of `npm run schemas:meta`); null when the file has none (a fixture tree with stripped meta
 * files): then the check is off.
 */
export const publishedPermissionKeys = (root: string): Set<string> | null => publishedKeysOf(path.join(root, 'schemas'));

/** Every menu page whose own key is neither published nor declared new (and every declaration that names another key). */
export function checkPagePermissions(schemas: readonly ParsedSchema[], published: ReadonlySet<string> | null | undefined): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const s of schemas) {
    const doc = s.doc as MenuPage;
    if (s.kind === 'enum' || s.kind === 'form' || !doc.menu || typeof doc.permission !== 'string') continue;
    const key = doc.permission;
    const declared = declaredNewKey(doc);
    if (declared !== undefined && declared !== key) {
      problems.push({ file: s.file, pointer: '/menu/newPermission', reason: `declares "${declared}" new, but the page's permission is "${key}" — a typo in one of them?` });
      continue;
    }
    if (!published || published.has(key) || declared === key) continue;
    problems.push({
      file: s.file,
      pointer: '/permission',
      reason:
        `page permission key "${key}" is not in the permission tree (schemas/meta lists the known keys) — a typo? ` +
        `A new page declares its key: "menu": { …, "newPermission": "${key}" }`,
    });
  }
  return problems;
}
