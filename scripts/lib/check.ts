/**
 * The checks of `npm run schemas:check`, as functions over a project tree, so tests run
 * them on small fixture trees. Each returns problems (`file#/pointer: reason`); none throws
 * for a broken schema.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripEditorValues } from '../../schemas/meta/src/files.js';
import { readSchemas } from '../../server/schemas/read.js';
import { loadMetaValidators, type MetaValidators } from '../../server/schemas/meta.js';
import { sortProblems, type SchemaProblem } from '../../server/schemas/problems.js';
import { checkMenuPages, derivedInputs, type MenuPageRoute } from '../../server/schemas/menu-pages.js';
import type { ModuleManifest } from '../../src/contract/permission-manifest.js';
import { checkPermissionReach, type RouteLike } from '../../server/schemas/grants.js';
import { collectRefs, parseApiRef } from '../../server/schemas/refs.js';
import { type ParsedSchema } from '../../server/schemas/validate.js';
import { checkInlineEnumCopies } from './check-enums.js';
import { checkPagePermissions } from './check-permissions.js';
import { similarityCheck, type SimilarityCheck } from './check-similar.js';
import { LOCALES, hasKey, readLocales, type LocaleTrees } from './locales.js';
import { readPageTexts, type SchemaText } from './similarity.js';
import { versionProblems } from './versions.js';

/** What the schemas are checked against; the CLI reads the real ones, tests pass their own. */
export interface CheckInputs {
  /** the project root: holds `schemas/` and `src/locales/` */
  root: string;
  /** registered widget names (src/contract/widget-names.ts) */
  widgets: ReadonlySet<string>;
  /** property names whose string values are i18n keys (TEXT_KEYS) */
  textKeys: readonly string[];
  /** server routes under /api/admin/ as `"METHOD path"` */
  apis: ReadonlySet<string>;
  /** the columns each list route sorts by (its `sort_by` values), by `"METHOD path"`; absent: not checked */
  sorts?: ReadonlyMap<string, readonly string[]>;
  /** flattened permission keys of the manifest */
  permissionKeys: ReadonlySet<string>;
  /** absolute route paths of the manifest (aliases included) */
  manifestRoutes: ReadonlySet<string>;
  /** routes of the manifest that must open a schema page (not a module home or bespoke screen); absent: not checked */
  pageRoutes?: readonly MenuPageRoute[];
  /**
   * the hand-written manifest (src/contract/permission-manifest.ts `MANIFEST`): when given, the
   * permission keys, manifest routes and page routes above are derived from it plus the `menu`
   * pages of the schemas being checked (titles from their locale files), and the derivation's
   * problems (unknown menu group or icon, a route declared by two pages, …) are reported
   */
  manifest?: readonly ModuleManifest[];
  /** git ref to compare versions with; null skips the version check */
  base: string | null;
  /**
   * what `npm run schemas:meta` would write (path relative to the root → text): the published
   * meta-schemas and the runtime validators; a committed file that differs is reported as
   * stale. Absent: not checked (fixture trees).
   */
  generated?: Readonly<Record<string, string>>;
  /**
   * the server's route table: each page's permission must reach the calls it makes
   * (server/schemas/grants.ts `checkPermissionReach`). Absent: not checked (fixture trees).
   */
  routes?: readonly RouteLike[];
  /**
   * the permission keys published in schemas/meta: a menu page's own key must be one of them or
   * be declared new by the page (./check-permissions.ts). Absent: not checked (fixture trees).
   */
  publishedKeys?: ReadonlySet<string> | null;
  /** compare the page and form files as written: no two 90 % alike (./similarity.ts); absent: not checked (fixture trees) */
  similarity?: boolean;
}

export interface CheckResult {
  problems: SchemaProblem[];
  schemas: ParsedSchema[];
}

export async function runChecks(inputs: CheckInputs): Promise<CheckResult> {
  const schemasDir = path.join(inputs.root, 'schemas');
  const { schemas, problems, brokenIds } = await readSchemas(schemasDir, await fullValidators(path.join(schemasDir, 'meta')));
  if (inputs.generated) problems.push(...(await checkGenerated(inputs.root, inputs.generated)));
  const locales = await readLocales(path.join(inputs.root, 'src', 'locales'));
  const written = inputs.similarity ? await readPageTexts(inputs.root) : undefined;
  problems.push(...checkSchemaSet(schemas, inputs, locales, { brokenIds, written }));
  if (inputs.base) problems.push(...(await checkVersions(schemas, inputs.root, inputs.base)));
  return { problems: sortProblems(problems), schemas };
}

export interface SetCheckOptions {
  /** ids of files that exist but are invalid: references to them are not reported again */
  brokenIds?: ReadonlySet<string>;
  /** the page and form files as written (fragments not expanded), for the similarity rule (when `inputs.similarity`) */
  written?: readonly SchemaText[];
  /** the similarity check to use (the dev watch keeps one, so unchanged files are not parsed again) */
  similar?: SimilarityCheck;
}

/**
 * Every check of a whole set of meta-valid schemas: ONE function, run by `schemas:check` and by
 * the dev watch (server/schemas/watch-checks.ts), so the two never disagree (issue 22). Only what
 * needs git (versions) or the generated files stays with the CLI, and the meta-schema and
 * unique-id checks with the readers (read.ts, validate.ts). In order: the permission tree
 * derived from the schemas' menu pages, references (widgets, enums, i18n keys, APIs, sortable
 * columns, permission keys, schemas, routes), each menu route having a page, each menu page's
 * own key known or declared new, no inline copy of an enum, each page's permission reaching its
 * calls, no two pages 90 % alike.
 */
export function checkSchemaSet(
  schemas: readonly ParsedSchema[],
  inputs: Omit<CheckInputs, 'root' | 'base' | 'generated'>,
  locales: LocaleTrees,
  opts: SetCheckOptions = {},
): SchemaProblem[] {
  const brokenIds = opts.brokenIds ?? new Set<string>();
  const derived = withDerivedTree(schemas, inputs, locales);
  return [
    ...derived.problems,
    ...checkReferences(schemas, derived.inputs, locales, brokenIds),
    ...(derived.inputs.pageRoutes ? checkPagesExist(schemas, derived.inputs.pageRoutes, brokenIds) : []),
    ...checkPagePermissions(schemas, inputs.publishedKeys),
    ...checkInlineEnumCopies(schemas, locales),
    ...(inputs.routes ? checkPermissionReach(schemas, inputs.routes) : []),
    ...(inputs.similarity && opts.written ? (opts.similar ?? similarityCheck())(opts.written) : []),
  ];
}

/**
 * The inputs with the permission tree derived from `schemas` (when `inputs.manifest` is given):
 * a page added in a schema brings its permission key and route along (issue 11).
 */
export function withDerivedTree<T extends Omit<CheckInputs, 'root' | 'base' | 'generated'>>(
  schemas: readonly ParsedSchema[],
  inputs: T,
  locales: LocaleTrees,
): { inputs: T; problems: SchemaProblem[] } {
  if (!inputs.manifest) return { inputs, problems: [] };
  const d = derivedInputs(schemas, locales, inputs.manifest);
  return {
    inputs: { ...inputs, permissionKeys: d.permissionKeys, manifestRoutes: d.manifestRoutes, pageRoutes: inputs.pageRoutes ? d.pageRoutes : undefined },
    problems: d.problems,
  };
}

const validatorCache = new Map<string, Promise<MetaValidators>>();

/**
 * The check validates with the meta-schema files themselves (compiled, all errors on), not
 * the precompiled fast path the server uses: CI is the authority. Cached by meta content.
 * The files' editor value lists (widget names, enum ids, permission keys, API refs) are
 * stripped first: the reference checks below report an unknown name by name ("unknown widget
 * …"), not as one of hundreds of allowed values.
 */
async function fullValidators(metaDir: string): Promise<MetaValidators> {
  const names = (await readdir(metaDir)).filter((n) => n.endsWith('.schema.json')).sort();
  const hash = createHash('sha256');
  const texts = new Map<string, string>();
  for (const n of names) {
    const text = await readFile(path.join(metaDir, n), 'utf8');
    texts.set(n, text);
    hash.update(n).update(text);
  }
  const key = hash.digest('hex');
  let v = validatorCache.get(key);
  if (!v) {
    v = (async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'schemas-meta-'));
      try {
        for (const [n, text] of texts) {
          let out = text;
          try {
            out = JSON.stringify(stripEditorValues(JSON.parse(text) as unknown));
          } catch {
            /* not JSON: loadMetaValidators says so */
          }
          await writeFile(path.join(dir, n), out);
        }
        return await loadMetaValidators(dir);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    })();
    validatorCache.set(key, v);
  }
  return v;
}

/**
 * A generated file that differs from what `npm run schemas:meta` writes now: a widget, enum,
 * permission key or route added (the editor value lists) or the language source changed.
 */
async function checkGenerated(root: string, expected: Readonly<Record<string, string>>): Promise<SchemaProblem[]> {
  const problems: SchemaProblem[] = [];
  for (const [file, text] of Object.entries(expected)) {
    let current: string | null = null;
    try {
      current = await readFile(path.join(root, file), 'utf8');
    } catch {
      /* missing */
    }
    if (current !== text) {
      problems.push({ file, pointer: '', reason: `${current === null ? 'missing' : 'out of date'} (run npm run schemas:meta and commit the result)` });
    }
  }
  return problems;
}

/** Cross-references of every valid schema: widgets, enums, i18n keys, APIs, permissions, schemas, routes. */
export function checkReferences(
  schemas: readonly ParsedSchema[],
  inputs: Omit<CheckInputs, 'root' | 'base'>,
  locales: LocaleTrees,
  /** ids of files that exist but are invalid: references to them are not reported again */
  brokenIds: ReadonlySet<string> = new Set(),
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const byId = new Map(schemas.map((s) => [s.id, s]));
  for (const s of schemas) {
    if (s.kind === 'enum') continue;
    const add = (pointer: string, reason: string) => problems.push({ file: s.file, pointer, reason });
    const refs = collectRefs(s.doc, inputs.textKeys);
    for (const r of refs.widgets) {
      if (!inputs.widgets.has(r.value)) add(r.pointer, `unknown widget "${r.value}" (not in src/contract/widget-names.ts)`);
    }
    for (const r of refs.enums) {
      const e = byId.get(r.value);
      if (brokenIds.has(r.value)) continue;
      if (!e || e.kind !== 'enum') add(r.pointer, `unknown enum "${r.value}" (no schemas/enums/${r.value}.json)`);
    }
    for (const r of refs.texts) {
      const missing = LOCALES.filter((l) => !hasKey(locales[l] ?? {}, r.value));
      if (missing.length) add(r.pointer, `i18n key "${r.value}" missing in ${missing.join(' and ')}`);
    }
    for (const r of refs.apis) {
      const api = parseApiRef(r.value);
      if (api && !inputs.apis.has(`${api.method} ${api.path}`)) add(r.pointer, `unknown API "${r.value}" (no such route on the server)`);
    }
    for (const r of refs.permissions) {
      if (!inputs.permissionKeys.has(r.value)) add(r.pointer, `unknown permission key "${r.value}" (not in the permission manifest)`);
    }
    for (const r of refs.schemas) {
      const target = byId.get(r.value);
      if (brokenIds.has(r.value)) continue;
      const want = r.pointer.endsWith('/form') ? 'form' : r.pointer.endsWith('/list') ? 'list' : null;
      if (!target) add(r.pointer, `unknown schema "${r.value}"`);
      else if (target.kind === 'enum') add(r.pointer, `"${r.value}" is an enum, not a page or form schema`);
      else if (want && target.kind !== want) add(r.pointer, `"${r.value}" is a ${target.kind} schema, expected a ${want}`);
    }
    for (const r of refs.routes) {
      if (!inputs.manifestRoutes.has(r.value)) {
        add(r.pointer, `route "${r.value}" is not in the permission manifest (add it to src/contract/permission-manifest.ts)`);
      }
    }
    if (inputs.sorts) checkSorters(s.doc, inputs.sorts, add);
  }
  return problems;
}

/**
 * Every routed manifest entry opens something: a menu entry whose route no page schema declares
 * would show "no page configured for this route" (issue 11). The check lives in
 * server/schemas/menu-pages.ts (the dev watch runs it too).
 */
export const checkPagesExist = checkMenuPages;

/** A sortable column of a list page is a column its data call sorts by (the server ignores any other). */
function checkSorters(doc: unknown, sorts: ReadonlyMap<string, readonly string[]>, add: (pointer: string, reason: string) => void) {
  const d = doc as { kind?: string; data?: { api?: string; sortParams?: unknown }; columns?: Array<{ key?: string; sorter?: boolean }> };
  if (d.kind !== 'list' || typeof d.data?.api !== 'string' || d.data.sortParams) return;
  const api = parseApiRef(d.data.api);
  if (!api) return;
  const by = sorts.get(`${api.method} ${api.path}`) ?? [];
  (d.columns ?? []).forEach((c, i) => {
    if (c.sorter && c.key && !by.includes(c.key)) {
      add(`/columns/${i}/sorter`, `column "${c.key}" is sortable but ${d.data!.api} does not sort by it (sort_by: ${by.join(', ') || 'none'})`);
    }
  });
}

/**
 * Every schema file changed since `base` must carry a higher `version` than it had there, and
 * than at the previous commit that changed it (scripts/lib/versions.ts). New files pass; a
 * change of formatting only (same canonical JSON) needs no bump.
 */
export async function checkVersions(schemas: readonly ParsedSchema[], root: string, base: string): Promise<SchemaProblem[]> {
  const found = await versionProblems(root, base, schemas.map((s) => ({ file: s.file, doc: s.doc })));
  return found.map((p) => ({ file: p.file, pointer: '/version', reason: p.reason }));
}
