/** Actions are data: what a button does, discriminated by `type`. */
import { Type, type Static } from '@sinclair/typebox';
import { ApiRef, Condition, Expression, I18nKey, ParamMap, PermissionKey, SchemaId, OneOfByType, StringEnum, doc } from './common.js';

const base = {
  key: doc(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]*$' }), 'unique within its action list', ['delete']),
  label: doc(I18nKey, 'button text (i18n key)', ['admin.role.delete']),
  icon: Type.Optional(doc(Type.String(), '@ant-design/icons name', ['PlusOutlined'])),
  permission: Type.Optional(doc(PermissionKey, 'the button is hidden without this permission key; default: the page\'s permission (shown to whoever may open the page)', ['admin_center.admin.permission.role.delete'])),
  visible: Type.Optional(doc(Condition, 'shown when true (expression over record, selection, …)', ['{{ record.status === 1 }}'])),
  disabled: Type.Optional(doc(Condition, 'disabled when true', ['{{ selection.length === 0 }}'])),
  danger: Type.Optional(doc(Type.Boolean(), 'red (destructive) button; default true for the keys delete and batchDelete', [true])),
  primary: Type.Optional(doc(Type.Boolean(), 'primary (filled) button; default true for the toolbar\'s add', [true])),
  confirm: Type.Optional(doc(I18nKey, 'ask this question (i18n key) before acting', ['admin.role.confirmDelete'])),
  tooltip: Type.Optional(doc(I18nKey, 'hover text (i18n key)', ['admin.role.deleteTip'])),
};

const opts = { additionalProperties: false } as const;
const type = <T extends string>(t: T, what: string) => doc(Type.Literal(t), `action type: ${what}`, [t]);

export const NavigateAction = Type.Object(
  { ...base, type: type('navigate', 'go to a route'), to: doc(Type.String(), 'route path; {{ }} parts filled in', ['/admin_center/authCenter/role/edit/{{ record.id }}']) },
  opts,
);

export const FormMode = StringEnum(['add', 'edit', 'view']);

export const OpenFormAction = Type.Object(
  {
    ...base,
    type: type('openForm', 'open a form schema (page, modal or drawer)'),
    form: doc(SchemaId, 'id of a `form` schema', ['admin_center.role_form']),
    mode: Type.Optional(doc(FormMode, 'the form mode to open. Default: add in a toolbar, edit in a row (rowActions) and in a detail page', ['view'])),
    /** params handed to the form (its load call and submit mapping see them as `params`) */
    params: Type.Optional(doc(ParamMap, 'params handed to the form (its load call and submit mapping see them as `params`)', [{ id: '{{ record.id }}' }])),
    /** initial values without a load call, e.g. "{{ record }}" */
    record: Type.Optional(doc(Expression, 'initial values without a load call', ['{{ record }}'])),
    /** refresh the page after the form succeeds (default true) */
    refresh: Type.Optional(doc(Type.Boolean(), 'refresh the page after the form succeeds (default true)', [false])),
  },
  opts,
);

export const RequestAction = Type.Object(
  {
    ...base,
    type: type('request', 'call an API'),
    api: doc(ApiRef, 'the call: "METHOD path" of a server route under /api/admin/', ['POST role/delete']),
    body: Type.Optional(doc(ParamMap, 'request body: key → literal or "{{ expression }}"', [{ id: '{{ record.id }}' }])),
    successMessage: Type.Optional(doc(I18nKey, 'toast after success (i18n key)', ['admin.role.deleted'])),
    refresh: Type.Optional(doc(Type.Boolean(), 'reload the page after success (default true)', [false])),
  },
  opts,
);

export const DownloadAction = Type.Object(
  {
    ...base,
    type: type('download', 'call an API and save the file it returns'),
    api: doc(ApiRef, 'the call that returns the file: "METHOD path" under /api/admin/', ['POST learn-material/export']),
    body: Type.Optional(doc(ParamMap, 'request body: key → literal or "{{ expression }}"', [{ ids: '{{ selection }}' }])),
    fileName: Type.Optional(doc(Type.String(), 'file name to save as (default: from the reply)', ['shops.xlsx'])),
    timeout: Type.Optional(doc(Type.Integer({ minimum: 1 }), 'request timeout in ms', [60000])),
  },
  opts,
);

export const UploadAction = Type.Object(
  {
    ...base,
    type: type('upload', 'pick a file and send it to an API'),
    api: doc(ApiRef, 'the call that receives the file: "METHOD path" under /api/admin/', ['POST order/import']),
    accept: Type.Optional(doc(Type.String(), 'file input accept', ['.csv,.xlsx'])),
    maxSize: Type.Optional(doc(Type.Integer({ minimum: 1 }), 'largest file in bytes', [10485760])),
    fieldName: Type.Optional(doc(Type.String(), 'multipart field name (default "file")', ['file'])),
    body: Type.Optional(doc(ParamMap, 'extra multipart fields: key → literal or "{{ expression }}"', [{ shop_id: '{{ params.id }}' }])),
    successMessage: Type.Optional(doc(I18nKey, 'toast after success (i18n key)', ['admin.shop.imported'])),
    refresh: Type.Optional(doc(Type.Boolean(), 'reload the page after success (default true)', [false])),
  },
  opts,
);

export const RefreshAction = Type.Object({ ...base, type: type('refresh', 'reload the page') }, opts);

export const Action = OneOfByType([NavigateAction, OpenFormAction, RequestAction, DownloadAction, UploadAction, RefreshAction], {
  $id: 'Action',
});
export const ActionList = Type.Array(Action);

export type TAction = Static<typeof Action>;
export type TFormMode = Static<typeof FormMode>;
export type TNavigateAction = Static<typeof NavigateAction>;
export type TOpenFormAction = Static<typeof OpenFormAction>;
export type TRequestAction = Static<typeof RequestAction>;
export type TDownloadAction = Static<typeof DownloadAction>;
export type TUploadAction = Static<typeof UploadAction>;
