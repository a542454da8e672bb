/** Actions are data: what a button does, discriminated by `type`. */
import { Type, type Static } from '@sinclair/typebox';
import { ApiRef, Condition, Expression, I18nKey, ParamMap, PermissionKey, SchemaId, OneOfByType, StringEnum } from './common.js';

const base = {
  key: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]*$', description: 'unique within its action list' }),
  label: I18nKey,
  icon: Type.Optional(Type.String({ description: '@ant-design/icons name, e.g. PlusOutlined' })),
  permission: Type.Optional(PermissionKey),
  visible: Type.Optional(Condition),
  disabled: Type.Optional(Condition),
  danger: Type.Optional(Type.Boolean()),
  primary: Type.Optional(Type.Boolean()),
  confirm: Type.Optional(I18nKey),
  tooltip: Type.Optional(I18nKey),
};

const opts = { additionalProperties: false } as const;

export const NavigateAction = Type.Object(
  { ...base, type: Type.Literal('navigate'), to: Type.String({ description: 'path; {{ }} parts filled in' }) },
  opts,
);

export const FormMode = StringEnum(['add', 'edit', 'view']);

export const OpenFormAction = Type.Object(
  {
    ...base,
    type: Type.Literal('openForm'),
    form: SchemaId,
    mode: FormMode,
    /** params handed to the form (its load call and submit mapping see them as `params`) */
    params: Type.Optional(ParamMap),
    /** initial values without a load call, e.g. "{{ record }}" */
    record: Type.Optional(Expression),
    /** refresh the page after the form succeeds (default true) */
    refresh: Type.Optional(Type.Boolean()),
  },
  opts,
);

export const RequestAction = Type.Object(
  {
    ...base,
    type: Type.Literal('request'),
    api: ApiRef,
    body: Type.Optional(ParamMap),
    successMessage: Type.Optional(I18nKey),
    refresh: Type.Optional(Type.Boolean()),
  },
  opts,
);

export const DownloadAction = Type.Object(
  {
    ...base,
    type: Type.Literal('download'),
    api: ApiRef,
    body: Type.Optional(ParamMap),
    fileName: Type.Optional(Type.String()),
    timeout: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  opts,
);

export const UploadAction = Type.Object(
  {
    ...base,
    type: Type.Literal('upload'),
    api: ApiRef,
    accept: Type.Optional(Type.String({ description: 'file input accept, e.g. ".csv,.xlsx"' })),
    maxSize: Type.Optional(Type.Integer({ minimum: 1, description: 'bytes' })),
    fieldName: Type.Optional(Type.String({ description: 'multipart field name (default "file")' })),
    body: Type.Optional(ParamMap),
    successMessage: Type.Optional(I18nKey),
    refresh: Type.Optional(Type.Boolean()),
  },
  opts,
);

export const RefreshAction = Type.Object({ ...base, type: Type.Literal('refresh') }, opts);

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
