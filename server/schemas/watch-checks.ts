/**
 * The cross-reference checks of `npm run schemas:check`, for the dev watch: widgets, enums, i18n
 * keys in both locales, server APIs (path and method), sortable columns, permission keys,
 * referenced schema ids, routes in the manifest, every menu page declared, ids and routes
 * unique. The functions are the check's own (scripts/lib/check.ts, server/schemas/menu-pages.ts);
 * only the version rule (git) and the generated-files rule are left to the CLI.
 *
 * The project's inputs (route table, widget names) are imported lazily: they pull in every
 * route module, which only a running dev watch needs. (No import circle either way: the check
 * reads schemas through read.ts, which imports neither the loader nor this watch.)
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../paths.js';
import type { CheckInputs } from '../../scripts/lib/check.js';
import type { LocaleTrees } from '../../scripts/lib/locales.js';
import { checkMenuPages } from './menu-pages.js';
import type { SchemaProblem } from './problems.js';
import { checkUnique, type ParsedSchema } from './validate.js';

/** What the checks compare schemas with: CheckInputs without the git base and generated files. */
export type ReferenceInputs = Omit<CheckInputs, 'base' | 'generated'>;

export interface WatchChecks {
  /** every problem of a whole set of (meta-valid) schemas */
  check(schemas: readonly ParsedSchema[]): SchemaProblem[];
  /** the folder whose files the checks read (locale files): the watch reloads on a change there */
  readonly localesDir: string;
  /** re-reads the locale files */
  reload(): Promise<void>;
}

/** The project root (parent of `schemas/`). */
export { PROJECT_ROOT };

/** The checks over fixed inputs (tests pass a fixture's; `projectInputs` gives the project's). */
export async function referenceChecks(inputs: ReferenceInputs): Promise<WatchChecks> {
  const [{ checkReferences, withDerivedTree }, { readLocales }] = await Promise.all([
    import('../../scripts/lib/check.js'),
    import('../../scripts/lib/locales.js'),
  ]);
  const localesDir = path.join(inputs.root, 'src', 'locales');
  let locales: LocaleTrees = await readLocales(localesDir);
  return {
    localesDir,
    check: (schemas) => {
      // the permission tree follows the schemas: a page added live brings its key and route
      const d = withDerivedTree(schemas, inputs, locales);
      return [
        ...checkUnique(schemas),
        ...d.problems,
        ...checkReferences(schemas, d.inputs, locales),
        ...(d.inputs.pageRoutes ? checkMenuPages(schemas, d.inputs.pageRoutes) : []),
      ];
    },
    async reload() {
      locales = await readLocales(localesDir);
    },
  };
}

/**
 * The project's inputs, as `schemas:check` reads them (widget names, server routes and their
 * sort columns, permission keys, manifest routes and pages), with the locale files of `root`.
 */
export async function projectInputs(root: string = PROJECT_ROOT): Promise<ReferenceInputs> {
  const [pi, manifest, meta] = await Promise.all([
    import('../../scripts/lib/project-inputs.js'),
    import('../../src/contract/permission-manifest.js'),
    import('../../schemas/meta/src/index.js'),
  ]);
  const [widgets, apis, sorts] = await Promise.all([pi.readWidgetNames(), pi.readApiRoutes(), pi.readApiSorts()]);
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
  };
}
