/**
 * Client-side schema check: `schemaVersion` support first, then the generated (standalone,
 * CSP-safe) ajv validator of the kind's meta-schema. Problems name id, pointer and reason.
 */
import { SUPPORTED_SCHEMA_VERSIONS } from '../../schemas/meta/src/constants.js';
import type { GeneratedError, GeneratedValidator } from './generated/validators.js';
import type { EnumSchema, PageKind, PageSchema, SchemaProblem } from './types.js';

type Validators = Record<'list' | 'form' | 'detail' | 'tabs' | 'enum', GeneratedValidator>;
let validators: Promise<Validators> | null = null;

/** The generated validators are a separate chunk, loaded once. */
function loadValidators(): Promise<Validators> {
  validators ??= import('./generated/validators.js').then((m) => ({
    list: m.validate_list,
    form: m.validate_form,
    detail: m.validate_detail,
    tabs: m.validate_tabs,
    enum: m.validate_enum,
  }));
  return validators;
}

/** Starts fetching the validators chunk ahead of the first check (a failed fetch is retried then). */
export function preloadValidators(): void {
  loadValidators().catch(() => {
    validators = null;
  });
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

/** Checks a page schema; resolves with no problems when it may be rendered. */
export async function checkPageSchema(id: string, raw: unknown): Promise<SchemaProblem[]> {
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
  const v = (await loadValidators())[doc.kind as PageKind];
  return v(raw) ? [] : toProblems(id, v.errors);
}

export async function checkEnum(id: string, raw: unknown): Promise<SchemaProblem[]> {
  const v = (await loadValidators()).enum;
  return v(raw) ? [] : toProblems(`enum ${id}`, v.errors);
}

/** Narrowing helper once checkPageSchema passed. */
export const asPage = (raw: unknown): PageSchema => raw as PageSchema;
export const asEnum = (raw: unknown): EnumSchema => raw as EnumSchema;
