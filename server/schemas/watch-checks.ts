/**
 * The checks of `npm run schemas:check`, for the dev watch: the very function the CLI runs over
 * the whole set (scripts/lib/check.ts `checkSchemaSet`: widgets, enums, i18n keys in both
 * locales, server APIs, sortable columns, permission keys, schema ids, routes in the manifest,
 * every menu page declared, each menu page's own key known or declared new, no inline copy of an
 * enum, each page's permission reaching its calls, no two pages 90 % alike) plus ids and routes
 * unique, so the watch and the CLI never disagree (issue 22). Only the version rule (git) and
 * the generated-files rule are left to the CLI.
 *
 * The project's inputs (route table, widget names) are imported lazily: they pull in every
 * route module, which only a running dev watch needs. (No import circle either way: the check
 * reads schemas through read.ts, which imports neither the loader nor this watch.)
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../paths.js';
import type { CheckInputs } from '../../scripts/lib/check.js';
import type { LocaleTrees } from '../../scripts/lib/locales.js';
import type { SchemaText } from '../../scripts/lib/similarity.js';
import type { SchemaProblem } from './problems.js';
import { checkUnique, type ParsedSchema } from './validate.js';

/** What the checks compare schemas with: CheckInputs without the git base and generated files. */
export type ReferenceInputs = Omit<CheckInputs, 'base' | 'generated'>;

export interface WatchChecks {
  /** every problem of a whole set of (meta-valid) schemas; `written`: the page and form files as written (similarity) */
  check(schemas: readonly ParsedSchema[], written?: readonly SchemaText[]): SchemaProblem[];
  /** the folder whose files the checks read (locale files): the watch reloads on a change there */
  readonly localesDir: string;
  /** re-reads the locale files */
  reload(): Promise<void>;
}

/** The project root (parent of `schemas/`). */
export { PROJECT_ROOT };

/** The checks over fixed inputs (tests pass a fixture's; `projectInputs` gives the project's). */
export async function referenceChecks(inputs: ReferenceInputs): Promise<WatchChecks> {
  const [{ checkSchemaSet }, { similarityCheck }, { readLocales }] = await Promise.all([
    import('../../scripts/lib/check.js'),
    import('../../scripts/lib/check-similar.js'),
    import('../../scripts/lib/locales.js'),
  ]);
  const localesDir = path.join(inputs.root, 'src', 'locales');
  let locales: LocaleTrees = await readLocales(localesDir);
  const similar = similarityCheck();
  return {
    localesDir,
    // the permission tree follows the schemas: a page added live brings its key and route
    check: (schemas, written) => [...checkUnique(schemas), ...checkSchemaSet(schemas, inputs, locales, { written, similar })],
    async reload() {
      locales = await readLocales(localesDir);
    },
  };
}

/**
 * The project's inputs, as `schemas:check` reads them (widget names, server routes and their
 * sort columns, permission keys, manifest routes and pages, the whole route table, the page keys
 * published in schemas/meta), with the locale files of `root`.
 */
export async function projectInputs(root: string = PROJECT_ROOT): Promise<ReferenceInputs> {
  const [pi, perms, manifest, meta] = await Promise.all([
    import('../../scripts/lib/project-inputs.js'),
    import('../../scripts/lib/check-permissions.js'),
    import('../../src/contract/permission-manifest.js'),
    import('../../schemas/meta/src/index.js'),
  ]);
  const [widgets, apis, sorts, routes] = await Promise.all([pi.readWidgetNames(), pi.readApiRoutes(), pi.readApiSorts(), pi.allRoutes()]);
  return {
    root,
    widgets,
    textKeys: meta.TEXT_KEYS,
    apis,
    sorts,
    manifest: manifest.MANIFEST,
    permissionKeys: manifest.allPermissionKeys(manifest.MANIFEST),
    manifestRoutes: pi.manifestRoutes(root),
    pageRoutes: pi.manifestPageRoutes(root),
    routes,
    publishedKeys: perms.publishedPermissionKeys(root),
    similarity: true,
  };
}
