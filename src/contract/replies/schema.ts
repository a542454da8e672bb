import { Type, type Static } from '@sinclair/typebox';
import type { ModuleManifest } from '../permission-manifest.js';
import { AnyObject, Nullable } from './typebox.js';

/**
 * Replies of the schema runtime's calls (server/routes/schema.ts, server/routes/dev-schema-watch.ts),
 * declared once: the server's reply schemas and the console's types (src/runtime/types.ts
 * narrows `kind`, the enums and the field schemas to the schema language's own types).
 */
export const SchemaListItemReply = Type.Object({
  id: Type.String(),
  version: Type.Integer(),
  hash: Type.String(),
  kind: Type.String(),
  /** route patterns; for forms, every mode route */
  routes: Type.Array(Type.String()),
  module: Nullable(Type.String()),
  permission: Nullable(Type.String()),
});

/** `GET schema/list`: the schemas the caller may open */
export const SchemaListReply = Type.Object({
  checked: Type.String({ description: 'fingerprint of the meta-schema check every served schema passed (src/contract/schema-check.ts)' }),
  list: Type.Array(SchemaListItemReply),
});

/** `GET schema/detail?id=`: one schema, its hash, the enums it refers to and a form's server field schemas */
export const SchemaDetailReply = Type.Object({
  schema: AnyObject(),
  hash: Type.String(),
  enums: Type.Record(Type.String(), AnyObject()),
  fields: Type.Optional(AnyObject({ description: 'for forms that submit to a server resource: the field schemas the server validates with' })),
  checked: Type.String(),
});

/** `GET schema/permission-tree`: the manifest plus the menu pages the schemas declare */
export const PermissionTreeReply = Type.Object({
  modules: Type.Array(Type.Unsafe<ModuleManifest>({ type: 'object', additionalProperties: true })),
  /**
   * Only while the server's dev watch runs (SCHEMA_WATCH=1): its locale files, by locale, so
   * texts added or edited since the console was built show without a rebuild.
   */
  texts: Type.Optional(
    Type.Unsafe<Record<string, Record<string, unknown>>>({ type: 'object', additionalProperties: true, description: 'only under the dev watch (SCHEMA_WATCH=1): the locale files by locale' }),
  ),
});

const WatchProblem = Type.Object({ file: Type.String(), pointer: Type.String(), reason: Type.String() });

/** `GET schema/watch-status`: the dev schema watch's refused edits and standing problems */
export const WatchStatusReply = Type.Object({ watching: Type.Boolean(), refused: Type.Array(WatchProblem), standing: Type.Array(WatchProblem) });

export type SchemaListItemReply = Static<typeof SchemaListItemReply>;
export type SchemaListReply = Static<typeof SchemaListReply>;
export type SchemaDetailReply = Static<typeof SchemaDetailReply>;
export type PermissionTreeReply = Static<typeof PermissionTreeReply>;
export type WatchStatus = Static<typeof WatchStatusReply>;
export type WatchProblem = Static<typeof WatchProblem>;
