/** `detail`: descriptions and sections for one record, plus embedded lists. */
import { Type, type Static } from '@sinclair/typebox';
import { ActionList } from './actions.js';
import { ApiCall, Condition, EnumId, I18nKey, ParamMap, PermissionKey, Props, RefreshWhile, SchemaId, WidgetName, header, pageFields, OneOfByType } from './common.js';

export const DetailItem = Type.Object(
  {
    key: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$' }),
    label: I18nKey,
    dataIndex: Type.Optional(Type.String()),
    widget: Type.Optional(WidgetName),
    widgetProps: Type.Optional(Props),
    enum: Type.Optional(EnumId),
    span: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
    permission: Type.Optional(PermissionKey),
    visible: Type.Optional(Condition),
  },
  { additionalProperties: false },
);

const sectionBase = {
  key: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' }),
  title: Type.Optional(I18nKey),
  permission: Type.Optional(PermissionKey),
  visible: Type.Optional(Condition),
};

export const DescriptionsSection = Type.Object(
  {
    ...sectionBase,
    type: Type.Literal('descriptions'),
    columns: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
    items: Type.Array(DetailItem, { minItems: 1 }),
  },
  { additionalProperties: false },
);

export const ListSection = Type.Object(
  {
    ...sectionBase,
    type: Type.Literal('list'),
    /** id of a `list` schema */
    list: SchemaId,
    /** route params handed to the embedded list (its data params see them as `params`) */
    params: Type.Optional(ParamMap),
  },
  { additionalProperties: false },
);

export const WidgetSection = Type.Object(
  {
    ...sectionBase,
    type: Type.Literal('widget'),
    widget: WidgetName,
    dataIndex: Type.Optional(Type.String()),
    widgetProps: Type.Optional(Props),
  },
  { additionalProperties: false },
);

export const Section = OneOfByType([DescriptionsSection, ListSection, WidgetSection], { $id: 'Section' });

export const DetailSchema = Type.Object(
  {
    ...header('detail'),
    ...pageFields,
    load: ApiCall,
    actions: Type.Optional(ActionList),
    sections: Type.Array(Section, { minItems: 1 }),
    /** reload quietly while the record is still running (see RefreshWhile); embedded lists reload with it */
    refreshWhile: Type.Optional(RefreshWhile),
  },
  { additionalProperties: false },
);

export type TDetailItem = Static<typeof DetailItem>;
export type TSection = Static<typeof Section>;
export type TDetailSchema = Static<typeof DetailSchema>;
