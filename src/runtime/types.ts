/**
 * Runtime types: the schema language types (from schemas/meta/src, one typed source) plus
 * what the loader and the server exchange.
 */
import type {
  PageKind,
  PageSchema,
  TAction,
  TColumn,
  TDetailSchema,
  TEnumSchema,
  TFormMode,
  TFormSchema,
  TFormilyObject,
  TFormilySchema,
  TListSchema,
  TRefreshWhile,
  TSection,
  TTabsSchema,
} from '../../schemas/meta/src/index.js';
import type { SchemaDetailReply as DetailReply, SchemaListItemReply, SchemaListReply as ListReply } from '../contract/replies/schema.js';

export type {
  PageKind,
  PageSchema,
  TAction as ActionSpec,
  TColumn as ColumnSpec,
  TDetailSchema as DetailSchema,
  TEnumSchema as EnumSchema,
  TFormMode as FormMode,
  TFormSchema as FormSchema,
  TFormilyObject as FormilyObject,
  TFormilySchema as FormilyNode,
  TListSchema as ListSchema,
  TRefreshWhile as RefreshWhileSpec,
  TSection as SectionSpec,
  TTabsSchema as TabsSchema,
};

/**
 * One entry of `GET schema/list` (only schemas the caller may open): the server's reply
 * (src/contract/replies/schema.ts) with `kind` narrowed to the schema language's page kinds;
 * `module` and `permission` may be left out where the console builds entries itself (tests, the
 * dev inspector).
 */
export type SchemaListItem = Omit<SchemaListItemReply, 'kind' | 'module' | 'permission'> & {
  kind: PageKind;
  module: string;
  permission?: string | null;
};

/** Reply of `GET schema/list` (`list`; `items` accepted too from an older server). */
export type SchemaListReply = Partial<Omit<ListReply, 'list'>> & { list?: SchemaListItem[]; items?: SchemaListItem[] };

/**
 * Reply of `GET schema/detail?id=` (src/contract/replies/schema.ts): the schema, its hash, and
 * the enums it references, narrowed to the schema language's types.
 */
export type SchemaDetailReply = Omit<DetailReply, 'schema' | 'enums' | 'fields' | 'checked'> & {
  schema: unknown;
  enums: Record<string, TEnumSchema>;
  /** for forms that submit to a server resource: the server's own field schemas */
  fields?: ResourceFields;
  checked?: string;
};

/**
 * The JSON Schemas the server validates a resource's bodies with (served with a form's
 * schema), so client-side validation and server validation agree.
 */
export interface ResourceFields {
  properties: Record<string, FieldConstraint>;
  required?: string[];
}

/** The JSON Schema keywords of a field that become Formily validators. */
export interface FieldConstraint {
  type?: string | string[];
  maxLength?: number;
  minLength?: number;
  maximum?: number;
  minimum?: number;
  pattern?: string;
  format?: string;
}

export type EnumMap = Readonly<Record<string, TEnumSchema>>;

/** A schema the client validated. */
export interface LoadedSchema<S extends PageSchema = PageSchema> {
  id: string;
  hash: string;
  schema: S;
  enums: EnumMap;
  fields?: ResourceFields;
}

/** Why a schema cannot be shown: names the schema, the JSON pointer and the reason. */
export interface SchemaProblem {
  id: string;
  file?: string;
  pointer: string;
  reason: string;
}

export class SchemaLoadError extends Error {
  constructor(readonly problems: SchemaProblem[]) {
    super(problems.map((p) => `${p.id} ${p.pointer || '/'}: ${p.reason}`).join('; '));
    this.name = 'SchemaLoadError';
  }
}

/** The signed-in user as expressions see it (`user`). */
export interface RuntimeUser {
  id: number | string;
  email?: string;
  name?: string;
}
