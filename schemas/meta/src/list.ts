/** `list`: a data table with filters (synced to the URL query), columns and actions. */
import { Type, type Static } from '@sinclair/typebox';
import { ActionList } from './actions.js';
import { ApiRef, Condition, EnumRef, I18nKey, ParamMap, PermissionKey, Props, RefreshWhile, WidgetName, doc, header, pageFields, StringEnum } from './common.js';
import { FormilyObject } from './formily.js';

export const Column = Type.Object(
  {
    key: doc(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$' }), 'unique column key (also the row field when there is no dataIndex)', ['name']),
    title: doc(I18nKey, 'column header (i18n key)', ['admin.role.name']),
    /** dotted path into the row (default: key) */
    dataIndex: Type.Optional(doc(Type.String(), 'dotted path into the row (default: key)', ['shop.name'])),
    /** display widget from the registry (default: plain text) */
    widget: Type.Optional(doc(WidgetName, 'display widget from the registry (default: EnumTag with an enum, DateTime for a key ending in _at, else plain text)', ['DateTime'])),
    widgetProps: Type.Optional(doc(Props, 'props of the display widget', [{ format: 'YYYY-MM-DD HH:mm' }])),
    enum: Type.Optional(doc(EnumRef, 'enum id in schemas/enums: shows the label (and colour) of the value', ['policy_channel'])),
    width: Type.Optional(doc(Type.Integer({ minimum: 24 }), 'column width in px. Default: 80 for the `id` column, 170 for a DateTime column; else none (the column takes what is left)', [160])),
    sorter: Type.Optional(doc(Type.Boolean(), 'sortable by the server (its list route must sort by this key)', [true])),
    fixed: Type.Optional(doc(StringEnum(['left', 'right']), 'stick the column to a side when scrolling', ['right'])),
    align: Type.Optional(doc(StringEnum(['left', 'center', 'right']), 'text alignment', ['right'])),
    ellipsis: Type.Optional(doc(Type.Boolean(), 'cut long text with … (full text on hover)', [true])),
    tooltip: Type.Optional(doc(I18nKey, 'help icon text next to the header (i18n key)', ['admin.role.nameTip'])),
    permission: Type.Optional(doc(PermissionKey, 'the column is hidden without this permission key', ['admin_center.admin.permission.role.update'])),
    visible: Type.Optional(doc(Condition, 'shown when true', ['{{ query.env === "prod" }}'])),
    /** hidden until the person turns it on in column settings */
    defaultHidden: Type.Optional(doc(Type.Boolean(), 'hidden until the person turns it on in column settings', [true])),
  },
  { additionalProperties: false },
);

export const ListData = Type.Object(
  {
    api: doc(ApiRef, 'the list call: "METHOD path" of a server route under /api/admin/', ['GET shop/list']),
    params: Type.Optional(doc(ParamMap, 'fixed query params besides filters and paging: key → literal or "{{ expression }}"', [{ shop_id: '{{ params.id }}' }])),
    rowKey: Type.Optional(doc(Type.String(), 'row field that identifies a row (default "id")', ['id'])),
    /** `page` (default): reply {list,total,page,page_size}; `array`: reply is the rows; `tree`: rows with children */
    shape: Type.Optional(doc(StringEnum(['page', 'array', 'tree']), '`page` (default): reply {list,total,page,page_size}; `array`: reply is the rows; `tree`: rows with children', ['array'])),
    /** children field of tree rows (default "children") */
    childrenKey: Type.Optional(doc(Type.String(), 'children field of tree rows (default "children")', ['children'])),
    /** query names for sorting (default sort_by / sort_order; the API gets asc | desc) */
    sortParams: Type.Optional(
      doc(
        Type.Object(
          { field: doc(Type.String(), 'query name of the sort column', ['sort_by']), order: doc(Type.String(), 'query name of the direction (asc | desc)', ['sort_order']) },
          { additionalProperties: false },
        ),
        'query names for sorting (default sort_by / sort_order; the API gets asc | desc)',
        [{ field: 'order_by', order: 'direction' }],
      ),
    ),
  },
  { additionalProperties: false },
);

export const Pagination = Type.Object(
  {
    pageSize: Type.Optional(doc(Type.Integer({ minimum: 1, maximum: 5000 }), 'rows per page (default 10)', [20])),
    pageSizeOptions: Type.Optional(doc(Type.Array(Type.Integer({ minimum: 1 })), 'page sizes offered', [[10, 20, 50]])),
    /** page sizes at or above this use the virtual table (default 100) */
    virtualThreshold: Type.Optional(doc(Type.Integer({ minimum: 1 }), 'page sizes at or above this use the virtual table (default 100)', [200])),
  },
  { additionalProperties: false },
);

export const ListSchema = Type.Object(
  {
    ...header('list'),
    ...pageFields,
    data: doc(ListData, 'where the rows come from', [{ api: 'GET shop/list' }]),
    filters: Type.Optional(doc(FormilyObject, 'filter bar: a Formily object schema, synced to the URL query', [{ type: 'object', properties: { name: { type: 'string', 'x-decorator': 'FormItem', 'x-component': 'Input' } } }])),
    /** how many filters show before the rest fold behind "more filters" (default 6; false: never fold) */
    filtersShown: Type.Optional(doc(Type.Union([Type.Integer({ minimum: 1 }), Type.Literal(false)]), 'how many filters show before the rest fold behind "more filters" (default 6; false: never fold)', [4])),
    columns: doc(Type.Array(Column, { minItems: 1 }), 'the table columns, in order', [[{ key: 'name', title: 'admin.role.name' }]]),
    toolbar: Type.Optional(doc(ActionList, 'buttons above the table (an openForm opens mode add unless it says otherwise)', [[{ key: 'add', type: 'openForm', label: 'common.add', form: 'admin_center.role_form', mode: 'add' }]])),
    rowActions: Type.Optional(doc(ActionList, 'buttons in each row (`record` is the row). Defaults: an openForm opens mode edit; a request without body sends { id: record.id }; an openForm in mode edit / view without params passes the same', [[{ key: 'delete', type: 'request', label: 'common.delete', api: 'POST role/delete', body: { id: '{{ record.id }}' } }]])),
    batchActions: Type.Optional(doc(ActionList, 'buttons acting on the selected rows. Default body of a request: ids = selectedKeys (with selectAllMatching: ids, or filter = matchFilter when all matching rows are selected)', [[{ key: 'delete', type: 'request', label: 'common.delete', api: 'POST role/delete', body: { ids: '{{ selection }}' } }]])),
    rowSelection: Type.Optional(doc(StringEnum(['checkbox', 'radio']), 'rows can be selected (needed by batchActions)', ['checkbox'])),
    selectAllMatching: Type.Optional(
      doc(
        Type.Boolean(),
        'the bulk bar offers "select all N matching" (the batch API takes `filter`): batch actions then see `allMatching` true and `matchFilter` (the list query without paging), and `selectedCount`',
        [true],
      ),
    ),
    pagination: Type.Optional(doc(Type.Union([Type.Literal(false), Pagination]), 'paging (false: all rows on one page)', [{ pageSize: 20 }])),
    defaultSort: Type.Optional(
      doc(
        Type.Object(
          { field: doc(Type.String(), 'column key sorted by', ['created_at']), order: doc(StringEnum(['ascend', 'descend']), 'direction', ['descend']) },
          { additionalProperties: false },
        ),
        'initial sort',
        [{ field: 'created_at', order: 'descend' }],
      ),
    ),
    /** column settings (visibility, order, width) persisted per user; default true */
    columnSettings: Type.Optional(doc(Type.Boolean(), 'column settings (visibility, order, width) persisted per user; default true', [false])),
    emptyText: Type.Optional(doc(I18nKey, 'text when there are no rows (i18n key)', ['admin.role.empty'])),
    scrollX: Type.Optional(doc(Type.Integer({ minimum: 1 }), 'table scroll width in px', [1600])),
    /** reload quietly while a shown row is still running (see RefreshWhile) */
    refreshWhile: Type.Optional(doc(RefreshWhile, 'reload quietly while a shown row is still running', [{ field: 'status', in: ['running'] }])),
  },
  { additionalProperties: false },
);

export type TColumn = Static<typeof Column>;
export type TListData = Static<typeof ListData>;
export type TListSchema = Static<typeof ListSchema>;
