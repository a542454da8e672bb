/**
 * The Formily JSON schema subset a form or filter may use. Unknown keys are refused so a
 * typo fails the check; `x-component` / `x-decorator` must name registry widgets.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Condition, EnumId, Expression, I18nKey, PermissionKey, Props, WidgetName, StringEnum } from './common.js';

const ReactionEffect = Type.Object(
  {
    state: Type.Optional(Props),
    schema: Type.Optional(Props),
  },
  { additionalProperties: false },
);

export const Reaction = Type.Object(
  {
    dependencies: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Record(Type.String(), Type.String())])),
    when: Type.Optional(Condition),
    target: Type.Optional(Type.String()),
    effects: Type.Optional(Type.Array(Type.String())),
    fulfill: Type.Optional(ReactionEffect),
    otherwise: Type.Optional(ReactionEffect),
  },
  { additionalProperties: false },
);

const ValidatorRule = Type.Object(
  {
    required: Type.Optional(Type.Boolean()),
    format: Type.Optional(Type.String()),
    pattern: Type.Optional(Type.String()),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    minLength: Type.Optional(Type.Integer()),
    maxLength: Type.Optional(Type.Integer()),
    minItems: Type.Optional(Type.Integer()),
    maxItems: Type.Optional(Type.Integer()),
    whitespace: Type.Optional(Type.Boolean()),
    triggerType: Type.Optional(StringEnum(['onInput', 'onFocus', 'onBlur'])),
    validator: Type.Optional(Expression),
    message: Type.Optional(I18nKey),
  },
  { additionalProperties: false },
);
export const Validator = Type.Union([Type.String(), ValidatorRule, Type.Array(Type.Union([Type.String(), ValidatorRule]))]);

const EnumOption = Type.Object(
  { label: I18nKey, value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]), color: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

const FieldType = StringEnum(['object', 'array', 'string', 'number', 'boolean', 'void', 'date', 'datetime']);
const Mode = StringEnum(['add', 'edit', 'view']);

export const FormilySchema = Type.Recursive(
  (Self) =>
    Type.Object(
      {
        type: Type.Optional(FieldType),
        title: Type.Optional(I18nKey),
        description: Type.Optional(I18nKey),
        default: Type.Optional(Type.Unknown()),
        enum: Type.Optional(Type.Array(EnumOption)),
        required: Type.Optional(Type.Union([Type.Boolean(), Type.Array(Type.String())])),
        properties: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), Self)),
        items: Type.Optional(Self),
        'x-index': Type.Optional(Type.Integer()),
        'x-component': Type.Optional(WidgetName),
        'x-component-props': Type.Optional(Props),
        'x-decorator': Type.Optional(WidgetName),
        'x-decorator-props': Type.Optional(Props),
        'x-validator': Type.Optional(Validator),
        'x-reactions': Type.Optional(Type.Union([Reaction, Type.Array(Reaction)])),
        'x-visible': Type.Optional(Condition),
        'x-hidden': Type.Optional(Condition),
        'x-disabled': Type.Optional(Condition),
        'x-read-only': Type.Optional(Condition),
        'x-display': Type.Optional(StringEnum(['visible', 'hidden', 'none'])),
        'x-pattern': Type.Optional(
          StringEnum(['editable', 'disabled', 'readOnly', 'readPretty']),
        ),
        'x-content': Type.Optional(I18nKey),
        /** enum id in schemas/enums: options (and labels) for Select / Radio / Checkbox */
        'x-enum': Type.Optional(EnumId),
        /** the field is hidden (and not submitted) without this permission */
        'x-permission': Type.Optional(PermissionKey),
        /** form modes that show this field (default: all) */
        'x-modes': Type.Optional(Type.Array(Mode, { minItems: 1 })),
      },
      { additionalProperties: false },
    ),
  { $id: 'FormilySchema' },
);

/** An object schema: the root of a form or a filter form. */
export const FormilyObject = Type.Object(
  {
    type: Type.Literal('object'),
    properties: Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), FormilySchema),
    'x-component-props': Type.Optional(Props),
  },
  { additionalProperties: false },
);

export type TFormilySchema = Static<typeof FormilySchema>;
export type TFormilyObject = Static<typeof FormilyObject>;
export type TReaction = Static<typeof Reaction>;
