/**
 * THE SCHEMA LANGUAGE of Backoffice Console (language version 1).
 *
 * One typed source (TypeBox) yields both the TypeScript types the runtime uses (`Static<>`)
 * and the JSON Schema meta-schemas in schemas/meta/*.schema.json (`npm run schemas:meta`;
 * a unit test fails when the committed files differ from this source).
 *
 * Every schema file carries `$schema` (relative path into schemas/meta, e.g.
 * "../../meta/list.schema.json"), `id`, `kind`, `schemaVersion` (language version) and
 * `version` (content revision, raised on every change). Kinds:
 *  - `list`   (schemas/pages): `data` { api: "GET role/list", params, shape page|array|tree },
 *             `filters` (Formily object schema, synced to the URL query), `columns`
 *             (key, title, dataIndex, widget, enum, width, sorter, fixed, permission, visible),
 *             `toolbar` / `rowActions` / `batchActions`, `rowSelection`, `pagination` (page_size 10).
 *  - `form`   (schemas/forms): `presentation` page|modal|drawer; `modes` { add, edit, view } each
 *             with title, route (page forms), permission, load, submit { api, body, successMessage };
 *             `load`; `schema` (Formily object schema: x-component, x-decorator, x-validator,
 *             x-reactions, x-enum, x-permission, x-modes); `then` close|back|navigate|stay.
 *  - `detail` (schemas/pages): `load`, `actions`, `sections` (descriptions | embedded list by id | widget).
 *  - `tabs`   (schemas/pages): `tabs` [{ key, title, schema: id }].
 *  - `enum`   (schemas/enums): `items` [{ value, label { zh-CN, en-US }, color }].
 * Actions (data, discriminated by `type`): navigate, openForm, request, download, upload, refresh.
 * Text values (properties named in TEXT_KEYS) are i18n keys present in both locales.
 * Expressions are strings wrapped in {{ }}, evaluated by a whitelisted evaluator (never eval /
 * new Function). Scope: record (= row), values, params (route / openForm params), query, user,
 * selection, mode, result; inside Formily reactions also $self, $form, $values, $deps, $target.
 * API refs are "METHOD path" with path relative to /api/admin/. `permission` everywhere is a
 * flattened `module.permission_key` (src/contract/permission-manifest.ts); without it the
 * element is hidden. Widget names (column `widget`, `x-component`, `x-decorator`) come from
 * src/widgets/names.ts.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { DetailSchema } from './detail.js';
import { EnumSchema } from './enum.js';
import { FormSchema } from './form.js';
import { ListSchema } from './list.js';
import { TabsSchema } from './tabs.js';

export * from './actions.js';
export * from './common.js';
export * from './detail.js';
export * from './enum.js';
export * from './form.js';
export * from './formily.js';
export * from './list.js';
export * from './tabs.js';

export { CURRENT_SCHEMA_VERSION, SUPPORTED_SCHEMA_VERSIONS, TEXT_KEYS } from './constants.js';

export const META_KINDS = ['list', 'form', 'detail', 'tabs', 'enum'] as const;
export type MetaKind = (typeof META_KINDS)[number];
export type PageKind = Exclude<MetaKind, 'enum'>;

export const META_TYPES: Record<MetaKind, TSchema> = {
  list: ListSchema,
  form: FormSchema,
  detail: DetailSchema,
  tabs: TabsSchema,
  enum: EnumSchema,
};

/** File name of a kind's meta-schema inside schemas/meta. */
export const metaFileName = (kind: MetaKind): string => `${kind}.schema.json`;

/** Any page schema the runtime renders. */
export type PageSchema =
  | Static<typeof ListSchema>
  | Static<typeof FormSchema>
  | Static<typeof DetailSchema>
  | Static<typeof TabsSchema>;

export { toJsonSchema } from './to-json.js';
