/** `enum`: a shared dictionary in schemas/enums — values, labels in both languages, tag colours. */
import { Type, type Static } from '@sinclair/typebox';
import { header } from './common.js';

export const EnumLabel = Type.Object(
  { 'zh-CN': Type.String({ pattern: '\\S' }), 'en-US': Type.String({ pattern: '\\S' }) },
  { additionalProperties: false },
);

export const EnumItem = Type.Object(
  {
    value: Type.Union([Type.String(), Type.Integer(), Type.Boolean()]),
    label: EnumLabel,
    /** antd tag colour: preset name (success, processing, error, warning, default, blue, …) or #hex */
    color: Type.Optional(Type.String()),
    /** kept for old records, not offered in selects */
    deprecated: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const EnumSchema = Type.Object(
  {
    ...header('enum'),
    /** human title for reviewers and the inspector */
    title: Type.Optional(EnumLabel),
    items: Type.Array(EnumItem, { minItems: 1 }),
  },
  { additionalProperties: false },
);

export type TEnumLabel = Static<typeof EnumLabel>;
export type TEnumItem = Static<typeof EnumItem>;
export type TEnumSchema = Static<typeof EnumSchema>;
