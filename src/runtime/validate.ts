/**
 * Client-side schema check: `schemaVersion` support first, then the generated (standalone,
 * CSP-safe) ajv validator of the kind's meta-schema. Problems name id, pointer and reason.
 */
import { SUPPORTED_SCHEMA_VERSIONS } from '../../schemas/meta/src/constants.js';
import type { GeneratedError, GeneratedValidator } from '../contract/generated/validators.js';
import { loadOnce, type LoadOnce } from './load-once.js';
import type { EnumSchema, PageKind, PageSchema, SchemaProblem } from './types.js';

type Kind = 'list' | 'form' | 'detail' | 'tabs' | 'enum';

/** Each kind's generated validator is a chunk of its own, loaded once when a schema of that kind is checked. */
const loaders: Record<Kind, LoadOnce<GeneratedValidator>> = {
  list: loadOnce(() => import('../contract/generated/validate-list.js').then((m) => m.validate_list)),
  form: loadOnce(() => import('../contract/generated/validate-form.js').then((m) => m.validate_form)),
  detail: loadOnce(() => import('../contract/generated/validate-detail.js').then((m) => m.validate_detail)),
  tabs: loadOnce(() => import('../contract/generated/validate-tabs.js').then((m) => m.validate_tabs)),
  enum: loadOnce(() => import('../contract/generated/validate-enum.js').then((m) => m.validate_enum)),
};

const loadValidator = (kind: Kind): Promise<GeneratedValidator> => loaders[kind]();

/**
 * Starts fetching validator chunks ahead of the first check (a failed fetch is retried then):
 * the given kind's (when known, e.g. from the schema index) and the enum validator.
 */
export function preloadValidators(kind?: PageKind): void {
  for (const k of kind ? [kind, 'enum' as const] : ['enum' as const]) loadValidator(k).catch(() => undefined);
}

const PAGE_KINDS: readonly string[] = ['list', 'form', 'detail', 'tabs'];

function describe(e: GeneratedError): string {
  const extra =
    e.keyword === 'additionalProperties'
      ? ` "${String(e.params.additionalProperty)}"`
      : e.keyword === 'enum'
        ? ` (${JSON.stringify(e.params.allowedValues)})`
        : '';
  return `${e.message ?? e.keyword}${extra}`;
}

const toProblems = (id: string, errors: GeneratedError[] | null | undefined, file?: string): SchemaProblem[] =>
  (errors ?? [{ instancePath: '', schemaPath: '', keyword: 'invalid', params: {}, message: 'invalid' }]).map((e) => ({
    id,
    file,
    pointer: e.instancePath || '/',
    reason: describe(e),
  }));

/**
 * Checks a page schema; resolves with no problems when it may be rendered. `serverChecked`:
 * the server ran this very meta-schema check on it (its fingerprint matched SCHEMA_CHECK), so
 * only the cheap checks below run and the validator chunk is not fetched.
 */
export async function checkPageSchema(id: string, raw: unknown, serverChecked = false): Promise<SchemaProblem[]> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return [{ id, pointer: '/', reason: 'schema is not an object' }];
  const doc = raw as Record<string, unknown>;
  if (!SUPPORTED_SCHEMA_VERSIONS.includes(doc.schemaVersion as number)) {
    return [
      {
        id,
        pointer: '/schemaVersion',
        reason: `schemaVersion ${JSON.stringify(doc.schemaVersion)} is not supported (supported: ${SUPPORTED_SCHEMA_VERSIONS.join(', ')})`,
      },
    ];
  }
  if (typeof doc.kind !== 'string' || !PAGE_KINDS.includes(doc.kind)) {
    return [{ id, pointer: '/kind', reason: `unknown kind ${JSON.stringify(doc.kind)}` }];
  }
  if (doc.id !== id) return [{ id, pointer: '/id', reason: `id "${String(doc.id)}" does not match "${id}"` }];
  if (serverChecked) return [];
  const v = await loadValidator(doc.kind as PageKind);
  return v(raw) ? [] : toProblems(id, v.errors);
}

export async function checkEnum(id: string, raw: unknown, serverChecked = false): Promise<SchemaProblem[]> {
  if (serverChecked) return raw && typeof raw === 'object' && !Array.isArray(raw) ? [] : [{ id: `enum ${id}`, pointer: '/', reason: 'enum is not an object' }];
  const v = await loadValidator('enum');
  return v(raw) ? [] : toProblems(`enum ${id}`, v.errors);
}

/** Narrowing helper once checkPageSchema passed. */
export const asPage = (raw: unknown): PageSchema => raw as PageSchema;
export const asEnum = (raw: unknown): EnumSchema => raw as EnumSchema;
