/** Shared building blocks of the schema language: ids, i18n keys, expressions, API refs. */
import { Type, type Static, type TSchema, type TUnion, type TUnsafe } from '@sinclair/typebox';

/** A string enum as a JSON Schema `enum` (compact in the meta-schema and in ajv code). */
export function StringEnum<const T extends readonly string[]>(values: T, opts: { description?: string } = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...opts });
}

/** A union discriminated by its `type` property (`oneOf` + `discriminator`). */
export function OneOfByType<T extends TSchema[]>(schemas: [...T], opts: { $id?: string } = {}): TUnsafe<Static<TUnion<T>>> {
  return Type.Unsafe<Static<TUnion<T>>>({ ...opts, type: 'object', discriminator: { propertyName: 'type' }, required: ['type'], oneOf: schemas });
}

/** An i18n key present in both locales, e.g. `admin.role.title` (namespace first). */
export const I18nKey = Type.String({
  pattern: '^[a-z][A-Za-z0-9_]*(\\.[A-Za-z0-9_-]+)+$',
  description: 'i18n key present in zh-CN and en-US, e.g. "admin.role.title"',
});

/** A safe expression: `{{ ... }}` evaluated by the runtime without eval / new Function. */
export const Expression = Type.String({
  pattern: '^\\s*\\{\\{[\\s\\S]*\\}\\}\\s*$',
  description: 'expression wrapped in {{ }}; scope: record/row, values, params, query, user, selection, mode',
});

/** A literal, an expression, or a string template with `{{ }}` parts. */
export const Mapped = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

/** Parameter / body mapping: key → literal or `{{ expression }}`. */
export const ParamMap = Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.]*$' }), Mapped, {
  description: 'key → literal or "{{ expression }}"',
});

/** `"METHOD path"`, path relative to /api/admin/, e.g. "GET role/list". */
export const ApiRef = Type.String({
  pattern: '^(GET|POST) [A-Za-z0-9_][A-Za-z0-9_./-]*$',
  description: '"METHOD path", path relative to /api/admin/, e.g. "GET role/list"',
});

/** Flattened permission key `module.permission_key` from the permission manifest. */
export const PermissionKey = Type.String({
  pattern: '^(intelligent_text|intelligent_voice|panda_descendant|admin_center|unauth_common)\\.[A-Za-z0-9_.]+$',
  description: 'flattened `module.permission_key` (src/contract/permission-manifest.ts)',
});

/** A schema id, e.g. `admin_center.role.list`. */
export const SchemaId = Type.String({ pattern: '^[a-z][a-z0-9_]*(\\.[A-Za-z0-9_]+)+$' });

/** An enum id (file name in schemas/enums without `.json`), e.g. `permission_type`. */
export const EnumId = Type.String({ pattern: '^[a-z][a-z0-9_]*$' });

/** A route pattern, absolute, with `:param` segments, e.g. `/admin_center/authCenter/role/edit/:id`. */
export const RoutePath = Type.String({ pattern: '^/[A-Za-z0-9_:/-]*$' });

/** A widget name from the registry (src/widgets/names.ts). */
export const WidgetName = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9.]*$' });

export const ModuleName = StringEnum(['intelligent_text', 'intelligent_voice', 'panda_descendant', 'admin_center'], {
  description: 'module prefix',
});

/** Visibility / disabled flags: a boolean or an expression. */
export const Condition = Type.Union([Type.Boolean(), Expression]);

/** Free component props (text values under TEXT_KEYS are i18n keys). */
export const Props = Type.Record(Type.String(), Type.Unknown());

/** Fields every schema file carries. */
export function header<K extends string>(kind: K) {
  return {
    $schema: Type.String({ pattern: `meta/${kind}\\.schema\\.json$`, description: 'relative path into schemas/meta' }),
    id: kind === 'enum' ? EnumId : SchemaId,
    kind: Type.Literal(kind),
    schemaVersion: Type.Integer({ minimum: 1, description: 'language version (runtime supports SUPPORTED_SCHEMA_VERSIONS)' }),
    version: Type.Integer({ minimum: 1, description: 'content revision, raised on every change' }),
    notes: Type.Optional(Type.String({ description: 'free note for reviewers (never shown, not an i18n key)' })),
  };
}

/** Fields of a page-like schema (list, detail, tabs): where it lives and who may open it. */
export const pageFields = {
  module: ModuleName,
  routes: Type.Optional(Type.Array(RoutePath, { minItems: 1, description: 'route patterns that open this page' })),
  permission: Type.Optional(PermissionKey),
  title: I18nKey,
};

/** A call: API ref and its parameter mapping. */
export const ApiCall = Type.Object(
  {
    api: ApiRef,
    params: Type.Optional(ParamMap),
    /** dotted path of the result inside the reply `data` (default: the whole data) */
    path: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/**
 * Live refresh while something runs: the page reloads quietly (no spinner, rows, scroll and
 * selection kept) every `intervalMs` while a value of `field` is one of `in` — in any shown row
 * (list), in the record (detail), or in the reply of `watch` when given (an object, an array or
 * a page of rows) — and stops when none is, or while the browser tab is hidden.
 */
export const RefreshWhile = Type.Object(
  {
    /** dotted path into a row / the record / the watch reply, e.g. "status" */
    field: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.]*$' }),
    /** the values that mean "still running" (compared as text: 0 matches "0") */
    in: Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean()]), { minItems: 1 }),
    /** ms between reloads: 500–2000, default 2000 */
    intervalMs: Type.Optional(Type.Integer({ minimum: 500, maximum: 2000 })),
    /** test this call's reply instead (e.g. the task of a result list); it is called every interval while it matches */
    watch: Type.Optional(ApiCall),
  },
  { additionalProperties: false, description: 'reload quietly while a shown value of `field` is one of `in`' },
);

export type TRefreshWhile = Static<typeof RefreshWhile>;
export type TI18nKey = Static<typeof I18nKey>;
export type TParamMap = Static<typeof ParamMap>;
export type TApiCall = Static<typeof ApiCall>;
export type TModuleName = Static<typeof ModuleName>;
export type TCondition = Static<typeof Condition>;
