/** `tabs`: several schemas under one route; the active tab lives in the URL query. */
import { Type, type Static } from '@sinclair/typebox';
import { I18nKey, ParamMap, PermissionKey, SchemaId, header, pageFields } from './common.js';

export const Tab = Type.Object(
  {
    key: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' }),
    title: I18nKey,
    /** id of a list, detail or form (page) schema */
    schema: SchemaId,
    params: Type.Optional(ParamMap),
    permission: Type.Optional(PermissionKey),
  },
  { additionalProperties: false },
);

export const TabsSchema = Type.Object(
  {
    ...header('tabs'),
    ...pageFields,
    /** URL query name holding the active tab (default "tab") */
    queryKey: Type.Optional(Type.String()),
    tabs: Type.Array(Tab, { minItems: 1 }),
  },
  { additionalProperties: false },
);

export type TTab = Static<typeof Tab>;
export type TTabsSchema = Static<typeof TabsSchema>;
