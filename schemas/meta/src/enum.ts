/** `enum`: a shared dictionary in schemas/enums — values, labels in both languages, tag colours. */
import { Type, type Static } from '@sinclair/typebox';
import { doc, header } from './common.js';

export const EnumLabel = Type.Object(
  {
    'zh-CN': doc(Type.String({ pattern: '\\S' }), 'label in Chinese', ['进行中']),
    'en-US': doc(Type.String({ pattern: '\\S' }), 'label in English', ['Running']),
  },
  { additionalProperties: false },
);

export const EnumItem = Type.Object(
  {
    value: doc(Type.Union([Type.String(), Type.Integer(), Type.Boolean()]), 'the stored value', ['running']),
    label: doc(EnumLabel, 'label in both languages', [{ 'zh-CN': '进行中', 'en-US': 'Running' }]),
    /** antd tag colour: preset name (success, processing, error, warning, default, blue, …) or #hex */
    color: Type.Optional(doc(Type.String(), 'antd tag colour: preset name (success, processing, error, warning, default, blue, …) or #hex', ['processing'])),
    /** kept for old records, not offered in selects */
    deprecated: Type.Optional(doc(Type.Boolean(), 'kept for old records, not offered in selects', [true])),
    /** what the server reads the value as: its constants select values by tag, so the meaning has one home (issue 22) */
    tags: Type.Optional(
      doc(
        Type.Array(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), { uniqueItems: true, minItems: 1 }),
        'what the server reads the value as: its constants select values by tag (e.g. call results "placed", message types "ai_reply"), so the meaning lives here only',
        [['placed', 'connected']],
      ),
    ),
  },
  { additionalProperties: false },
);

export const EnumSchema = Type.Object(
  {
    ...header('enum'),
    /** human title for reviewers and the inspector */
    title: Type.Optional(doc(EnumLabel, 'human title for reviewers and the inspector', [{ 'zh-CN': '任务状态', 'en-US': 'Task status' }])),
    items: doc(Type.Array(EnumItem, { minItems: 1 }), 'the values, in display order', [[{ value: 'running', label: { 'zh-CN': '进行中', 'en-US': 'Running' } }]]),
  },
  { additionalProperties: false },
);

export type TEnumLabel = Static<typeof EnumLabel>;
export type TEnumItem = Static<typeof EnumItem>;
export type TEnumSchema = Static<typeof EnumSchema>;
