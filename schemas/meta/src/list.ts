/** `list`: a data table with filters (synced to the URL query), columns and actions. */
import { Type, type Static } from '@sinclair/typebox';
import { ActionList } from './actions.js';
import { ApiRef, Condition, EnumId, I18nKey, ParamMap, PermissionKey, Props, RefreshWhile, WidgetName, header, pageFields, StringEnum } from './common.js';
import { FormilyObject } from './formily.js';

export const Column = Type.Object(
  {
    key: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$' }),
    title: I18nKey,
    /** dotted path into the row (default: key) */
    dataIndex: Type.Optional(Type.String()),
    /** display widget from the registry (default: plain text) */
    widget: Type.Optional(WidgetName),
    widgetProps: Type.Optional(Props),
    enum: Type.Optional(EnumId),
    width: Type.Optional(Type.Integer({ minimum: 24 })),
    sorter: Type.Optional(Type.Boolean()),
    fixed: Type.Optional(StringEnum(['left', 'right'])),
    align: Type.Optional(StringEnum(['left', 'center', 'right'])),
    ellipsis: Type.Optional(Type.Boolean()),
    tooltip: Type.Optional(I18nKey),
    permission: Type.Optional(PermissionKey),
    visible: Type.Optional(Condition),
    /** hidden until the person turns it on in column settings */
    defaultHidden: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ListData = Type.Object(
  {
    api: ApiRef,
    params: Type.Optional(ParamMap),
    rowKey: Type.Optional(Type.String({ description: 'default "id"' })),
    /** `page` (default): reply {list,total,page,page_size}; `array`: reply is the rows; `tree`: rows with children */
    shape: Type.Optional(StringEnum(['page', 'array', 'tree'])),
    /** children field of tree rows (default "children") */
    childrenKey: Type.Optional(Type.String()),
    /** query names for sorting (default sort_by / sort_order; the API gets asc | desc) */
    sortParams: Type.Optional(
      Type.Object({ field: Type.String(), order: Type.String() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

export const Pagination = Type.Object(
  {
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, description: 'default 10' })),
    pageSizeOptions: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }))),
    /** page sizes at or above this use the virtual table (default 100) */
    virtualThreshold: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

export const ListSchema = Type.Object(
  {
    ...header('list'),
    ...pageFields,
    data: ListData,
    filters: Type.Optional(FormilyObject),
    /** how many filters show before the rest fold behind "more filters" (default 6; false: never fold) */
    filtersShown: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Literal(false)])),
    columns: Type.Array(Column, { minItems: 1 }),
    toolbar: Type.Optional(ActionList),
    rowActions: Type.Optional(ActionList),
    batchActions: Type.Optional(ActionList),
    rowSelection: Type.Optional(StringEnum(['checkbox', 'radio'])),
    pagination: Type.Optional(Type.Union([Type.Literal(false), Pagination])),
    defaultSort: Type.Optional(
      Type.Object(
        { field: Type.String(), order: StringEnum(['ascend', 'descend']) },
        { additionalProperties: false },
      ),
    ),
    /** column settings (visibility, order, width) persisted per user; default true */
    columnSettings: Type.Optional(Type.Boolean()),
    emptyText: Type.Optional(I18nKey),
    scrollX: Type.Optional(Type.Integer({ minimum: 1 })),
    /** reload quietly while a shown row is still running (see RefreshWhile) */
    refreshWhile: Type.Optional(RefreshWhile),
  },
  { additionalProperties: false },
);

export type TColumn = Static<typeof Column>;
export type TListData = Static<typeof ListData>;
export type TListSchema = Static<typeof ListSchema>;
