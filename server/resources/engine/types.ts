import type { Access, JsonSchema, RouteContext, RouteDef } from '../../http/route.js';

/** How a field can be filtered in `GET x/list`. */
export type FilterKind =
  /** `?field=value` → `column = value` */
  | 'eq'
  /** `?field=value` → `lower(column) = lower(value)` (emails) */
  | 'ci'
  /** `?field_from=&field_to=` → inclusive range (numbers, date-times) */
  | 'range';

export interface FieldDef {
  /** JSON Schema of the value: type, lengths, ranges, enum, format. Served to the client as is. */
  schema: JsonSchema;
  /** SQL column of the main table (alias `t`); defaults to the field name. */
  column?: string;
  /** SQL expression to read the value (defaults to `t.<column>`), e.g. `t.amount::float8`. */
  select?: string;
  /** the value may be null */
  nullable?: boolean;
  /** server-managed (id, timestamps, counters): never in a create or update body */
  readOnly?: boolean;
  /** required in a create body */
  required?: boolean;
  /** present in the create body but not the update body */
  createOnly?: boolean;
  /** set by the server (in validate) on insert/update, never accepted from a body */
  serverSet?: boolean;
  /** only in list rows / detail (e.g. a joined name) */
  virtual?: boolean;
  filter?: FilterKind;
  /**
   * An `eq` filter that is not a column comparison: this SQL condition over `t`, where `$value`
   * stands for the query value (e.g. the rows of a mail account's shop).
   */
  filterWhere?: string;
  sort?: boolean;
  /** left out of list rows (long text), still in detail */
  detailOnly?: boolean;
}

export type Permission = string | string[];

export interface OperationDef {
  permission: Permission;
  /** path segment after the resource name, default the operation name (`info` for a detail, `add` for a create) */
  path?: string;
}

export type Operation = 'list' | 'detail' | 'create' | 'update' | 'delete';

export interface ResourceDef {
  /** path prefix, e.g. `shop/policy` */
  name: string;
  /** audit resource name (default: name) */
  auditName?: string;
  table: string;
  /** joins after `FROM <table> t`, used for reads only (virtual fields) */
  joins?: string;
  fields: Record<string, FieldDef>;
  /** tsvector expression over `t.*` matching a GIN index: `?keyword=` does a word-prefix search */
  keyword?: string;
  /** `?keyword=` that is a whole number also matches these integer columns exactly */
  keywordIds?: string[];
  defaultSort: { field: string; order: 'asc' | 'desc' };
  maxPageSize?: number;
  operations: Partial<Record<Operation, OperationDef>>;
  /** extra checks before insert/update; throw `invalid([...])` to refuse */
  validate?(values: Record<string, unknown>, ctx: RouteContext, mode: 'create' | 'update', before?: Row): Promise<void>;
  /** runs after an insert in the same transaction */
  afterCreate?(row: Row, ctx: RouteContext): Promise<void>;
  afterUpdate?(row: Row, before: Row, ctx: RouteContext): Promise<void>;
  /**
   * Rows that keep a row from being deleted (its history: orders, sessions, plan orders …):
   * a delete while any exist is refused with 40009 naming them and their counts, so a delete
   * never cascades through business data.
   */
  dependents?: Dependent[];
  /** an extra rule before a delete (throw `conflict(...)` to refuse), after `dependents` */
  beforeDelete?(row: Row, ctx: RouteContext): Promise<void>;
  /** also `POST <name>/batch-delete` ({ ids }, up to 100): all or nothing, under the delete permission */
  batchDelete?: boolean;
  /** bespoke routes of this resource */
  actions?: RouteDef[];
}

export interface Dependent {
  table: string;
  /** the column that points at this resource's id */
  column: string;
  /** what one calls those rows, in both languages */
  label: { en: string; zh: string };
}

export type Row = Record<string, unknown>;

export const toAccess = (p: Permission): Access => ({ permission: p });

