/** `tabs`: several schemas under one route; the active tab lives in the URL query. */
import { Type, type Static } from '@sinclair/typebox';
import { I18nKey, ParamMap, PermissionKey, SchemaId, doc, header, pageFields } from './common.js';

export const Tab = Type.Object(
  {
    key: doc(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' }), 'tab key (its value in the URL query)', ['orders']),
    title: doc(I18nKey, 'tab title (i18n key)', ['admin.shop.orders']),
    /** id of a list, detail or form (page) schema */
    schema: doc(SchemaId, 'id of a list, detail or form (page) schema', ['admin_center.shop_order_list']),
    params: Type.Optional(doc(ParamMap, 'params handed to the tab schema (seen as `params`)', [{ shop_id: '{{ params.id }}' }])),
    permission: Type.Optional(doc(PermissionKey, 'the tab is hidden without this permission key', ['admin_center.admin.permission.role.detail'])),
  },
  { additionalProperties: false },
);

export const TabsSchema = Type.Object(
  {
    ...header('tabs'),
    ...pageFields,
    /** URL query name holding the active tab (default "tab") */
    queryKey: Type.Optional(doc(Type.String(), 'URL query name holding the active tab (default "tab")', ['tab'])),
    tabs: doc(Type.Array(Tab, { minItems: 1 }), 'the tabs, in order', [[{ key: 'orders', title: 'admin.shop.orders', schema: 'admin_center.shop_order_list' }]]),
  },
  { additionalProperties: false },
);

export type TTab = Static<typeof Tab>;
export type TTabsSchema = Static<typeof TabsSchema>;
