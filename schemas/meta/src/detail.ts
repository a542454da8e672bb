/** `detail`: descriptions and sections for one record, plus embedded lists. */
import { Type, type Static } from '@sinclair/typebox';
import { ActionList } from './actions.js';
import { ApiCall, Condition, EnumRef, I18nKey, ParamMap, PermissionKey, Props, RefreshWhile, SchemaId, WidgetName, doc, header, pageFields, OneOfByType } from './common.js';

export const DetailItem = Type.Object(
  {
    key: doc(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$' }), 'unique item key (also the record field when there is no dataIndex)', ['name']),
    label: doc(I18nKey, 'item label (i18n key)', ['admin.role.name']),
    dataIndex: Type.Optional(doc(Type.String(), 'dotted path into the record (default: key)', ['shop.name'])),
    widget: Type.Optional(doc(WidgetName, 'display widget from the registry (default: EnumTag with an enum, DateTime for a key ending in _at, else plain text)', ['DateTime'])),
    widgetProps: Type.Optional(doc(Props, 'props of the display widget', [{ format: 'YYYY-MM-DD HH:mm' }])),
    enum: Type.Optional(doc(EnumRef, 'enum id in schemas/enums: shows the label (and colour) of the value', ['policy_channel'])),
    span: Type.Optional(doc(Type.Integer({ minimum: 1, maximum: 4 }), 'columns the item spans', [2])),
    permission: Type.Optional(doc(PermissionKey, 'the item is hidden without this permission key', ['admin_center.admin.permission.role.update'])),
    visible: Type.Optional(doc(Condition, 'shown when true', ['{{ record.type === 1 }}'])),
  },
  { additionalProperties: false },
);

const sectionBase = {
  key: doc(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' }), 'unique section key', ['basic']),
  title: Type.Optional(doc(I18nKey, 'section title (i18n key)', ['admin.role.basicInfo'])),
  permission: Type.Optional(doc(PermissionKey, 'the section is hidden without this permission key', ['admin_center.admin.permission.role.update'])),
  visible: Type.Optional(doc(Condition, 'shown when true', ['{{ record.status === 1 }}'])),
};
const sectionType = <T extends string>(t: T, what: string) => doc(Type.Literal(t), `section type: ${what}`, [t]);

export const DescriptionsSection = Type.Object(
  {
    ...sectionBase,
    type: sectionType('descriptions', 'label / value pairs of the record'),
    columns: Type.Optional(doc(Type.Integer({ minimum: 1, maximum: 4 }), 'items per row', [2])),
    items: doc(Type.Array(DetailItem, { minItems: 1 }), 'the label / value items, in order', [[{ key: 'name', label: 'admin.role.name' }]]),
  },
  { additionalProperties: false },
);

export const ListSection = Type.Object(
  {
    ...sectionBase,
    type: sectionType('list', 'an embedded list schema'),
    /** id of a `list` schema */
    list: doc(SchemaId, 'id of a `list` schema', ['admin_center.role_user_list']),
    /** route params handed to the embedded list (its data params see them as `params`) */
    params: Type.Optional(doc(ParamMap, 'params handed to the embedded list (its data params see them as `params`)', [{ role_id: '{{ record.id }}' }])),
  },
  { additionalProperties: false },
);

export const WidgetSection = Type.Object(
  {
    ...sectionBase,
    type: sectionType('widget', 'one display widget'),
    widget: doc(WidgetName, 'display widget from the registry', ['JsonView']),
    dataIndex: Type.Optional(doc(Type.String(), 'dotted path into the record handed to the widget (default: the whole record)', ['payload'])),
    widgetProps: Type.Optional(doc(Props, 'props of the widget', [{ height: 320 }])),
  },
  { additionalProperties: false },
);

export const Section = OneOfByType([DescriptionsSection, ListSection, WidgetSection], { $id: 'Section' });

export const DetailSchema = Type.Object(
  {
    ...header('detail'),
    ...pageFields,
    load: doc(ApiCall, 'the call that loads the record', [{ api: 'GET role/detail', params: { id: '{{ params.id }}' } }]),
    actions: Type.Optional(doc(ActionList, 'buttons of the page (`record` is the loaded record)', [[{ key: 'back', type: 'navigate', label: 'common.back', to: '/admin_center/authCenter/role' }]])),
    sections: doc(Type.Array(Section, { minItems: 1 }), 'the sections, in order', [[{ key: 'basic', type: 'descriptions', items: [{ key: 'name', label: 'admin.role.name' }] }]]),
    /** reload quietly while the record is still running (see RefreshWhile); embedded lists reload with it */
    refreshWhile: Type.Optional(doc(RefreshWhile, 'reload quietly while the record is still running; embedded lists reload with it', [{ field: 'status', in: ['running'] }])),
  },
  { additionalProperties: false },
);

export type TDetailItem = Static<typeof DetailItem>;
export type TSection = Static<typeof Section>;
export type TDetailSchema = Static<typeof DetailSchema>;
