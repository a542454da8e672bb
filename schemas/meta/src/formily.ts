/**
 * The Formily JSON schema subset a form or filter may use. Unknown keys are refused so a
 * typo fails the check; `x-component` / `x-decorator` must name registry widgets.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Condition, EnumRef, Expression, I18nKey, PermissionKey, Props, WidgetName, StringEnum, doc } from './common.js';

const ReactionEffect = Type.Object(
  {
    state: Type.Optional(doc(Props, 'field state to set (visible, disabled, value, …); values may be "{{ }}"', [{ visible: '{{ $deps[0] === 1 }}' }])),
    schema: Type.Optional(doc(Props, 'schema properties to set on the target field', [{ 'x-component-props': { disabled: true } }])),
  },
  { additionalProperties: false },
);

export const Reaction = Type.Object(
  {
    dependencies: Type.Optional(
      doc(Type.Union([Type.Array(Type.String()), Type.Record(Type.String(), Type.String())]), 'fields this reaction watches, seen as $deps', [['type']]),
    ),
    when: Type.Optional(doc(Condition, 'apply `fulfill` when true, `otherwise` when false', ['{{ $deps[0] === "email" }}'])),
    target: Type.Optional(doc(Type.String(), 'the field the reaction changes (default: this field)', ['address'])),
    effects: Type.Optional(doc(Type.Array(Type.String()), 'Formily lifecycle effects that trigger it', [['onFieldValueChange']])),
    fulfill: Type.Optional(doc(ReactionEffect, 'what to set when `when` holds', [{ state: { visible: true } }])),
    otherwise: Type.Optional(doc(ReactionEffect, 'what to set when `when` does not hold', [{ state: { visible: false } }])),
  },
  { additionalProperties: false },
);

const ValidatorRule = Type.Object(
  {
    required: Type.Optional(doc(Type.Boolean(), 'a value is required', [true])),
    format: Type.Optional(doc(Type.String(), 'Formily format: email, url, phone, number, integer, …', ['email'])),
    pattern: Type.Optional(doc(Type.String(), 'regular expression the value must match', ['^[0-9]+$'])),
    min: Type.Optional(doc(Type.Number(), 'smallest number allowed', [0])),
    max: Type.Optional(doc(Type.Number(), 'largest number allowed', [100])),
    minLength: Type.Optional(doc(Type.Integer(), 'fewest characters', [2])),
    maxLength: Type.Optional(doc(Type.Integer(), 'most characters', [64])),
    minItems: Type.Optional(doc(Type.Integer(), 'fewest entries (arrays)', [1])),
    maxItems: Type.Optional(doc(Type.Integer(), 'most entries (arrays)', [10])),
    whitespace: Type.Optional(doc(Type.Boolean(), 'refuse a value of blanks only', [true])),
    triggerType: Type.Optional(doc(StringEnum(['onInput', 'onFocus', 'onBlur']), 'when the rule runs', ['onBlur'])),
    validator: Type.Optional(doc(Expression, 'expression over $self / $values; false (or a message key) fails', ['{{ $self.value !== values.old_password }}'])),
    message: Type.Optional(doc(I18nKey, 'message shown when the rule fails (i18n key)', ['admin.user.passwordRule'])),
  },
  { additionalProperties: false },
);
export const Validator = Type.Union([Type.String(), ValidatorRule, Type.Array(Type.Union([Type.String(), ValidatorRule]))]);

const EnumOption = Type.Object(
  {
    label: doc(I18nKey, 'option label (i18n key)', ['common.yes']),
    value: doc(Type.Union([Type.String(), Type.Number(), Type.Boolean()]), 'option value', [1]),
    color: Type.Optional(doc(Type.String(), 'antd tag colour of the option', ['success'])),
  },
  { additionalProperties: false },
);

const FieldType = StringEnum(['object', 'array', 'string', 'number', 'boolean', 'void', 'date', 'datetime', 'range']);
const Mode = StringEnum(['add', 'edit', 'view']);

export const FormilySchema = Type.Recursive(
  (Self) =>
    Type.Object(
      {
        type: Type.Optional(
          doc(
            FieldType,
            'value type of the field (`void` for layout only). Default: the type its widget holds (Input → string, NumberPicker → number, Switch → boolean, RemoteSelect → number …), else that of its options (x-enum / enum), else "string" for a field with no widget. `range`: a date range (array, DatePicker.RangePicker; in filters 260 px wide and sent as <name>_from / <name>_to)',
            ['string'],
          ),
        ),
        title: Type.Optional(doc(I18nKey, 'field label (i18n key)', ['admin.role.name'])),
        description: Type.Optional(doc(I18nKey, 'help text under the field (i18n key)', ['admin.role.nameHelp'])),
        default: Type.Optional(doc(Type.Unknown(), 'initial value in add mode', [1])),
        enum: Type.Optional(doc(Type.Array(EnumOption), 'inline options (prefer `x-enum` for shared dictionaries)', [[{ label: 'common.yes', value: 1 }]])),
        required: Type.Optional(doc(Type.Union([Type.Boolean(), Type.Array(Type.String())]), 'the field must have a value', [true])),
        properties: Type.Optional(
          doc(Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), Self), 'child fields (object / void fields), by name', [
            { name: { type: 'string', 'x-component': 'Input' } },
          ]),
        ),
        items: Type.Optional(doc(Self, 'schema of each entry of an array field', [{ type: 'object', properties: {} }])),
        'x-index': Type.Optional(doc(Type.Integer(), 'display order among its siblings', [1])),
        'x-component': Type.Optional(doc(WidgetName, 'input or layout widget from the registry (src/widgets/names.ts). Default: Select with options (x-enum or enum), Input for a string field', ['Input'])),
        'x-component-props': Type.Optional(
          doc(Props, 'props of the widget; text values under TEXT_KEYS are i18n keys. Defaults in filters: allowClear true on Input and Select; style.width 220 on RemoteSelect, 120 on Select, 260 on a range', [
            { placeholder: 'admin.role.namePlaceholder' },
          ]),
        ),
        'x-decorator': Type.Optional(doc(WidgetName, 'wrapper widget (label, help, error). Default: FormItem on a non-void field with a widget, except ArrayItems / ArrayTable', ['FormItem'])),
        'x-decorator-props': Type.Optional(doc(Props, 'props of the decorator', [{ tooltip: 'admin.role.nameTip' }])),
        'x-validator': Type.Optional(doc(Validator, 'validation: a format name, a rule or a list of them', [{ maxLength: 64 }])),
        'x-reactions': Type.Optional(doc(Type.Union([Reaction, Type.Array(Reaction)]), 'linkage with other fields', [{ dependencies: ['type'], fulfill: { state: { visible: '{{ $deps[0] === 1 }}' } } }])),
        'x-visible': Type.Optional(doc(Condition, 'shown (and submitted) when true', ['{{ mode !== "add" }}'])),
        'x-hidden': Type.Optional(doc(Condition, 'hidden but still submitted when true', [true])),
        'x-disabled': Type.Optional(doc(Condition, 'disabled when true', ['{{ mode === "edit" }}'])),
        'x-read-only': Type.Optional(doc(Condition, 'read only when true', [true])),
        'x-display': Type.Optional(doc(StringEnum(['visible', 'hidden', 'none']), 'Formily display state', ['none'])),
        'x-pattern': Type.Optional(doc(StringEnum(['editable', 'disabled', 'readOnly', 'readPretty']), 'Formily interaction pattern', ['readPretty'])),
        'x-content': Type.Optional(doc(I18nKey, 'text content of the widget, e.g. a button or a hint (i18n key)', ['admin.role.hint'])),
        /** enum id in schemas/enums: options (and labels) for Select / Radio / Checkbox */
        'x-enum': Type.Optional(doc(EnumRef, 'enum id in schemas/enums: options (and labels) for Select / Radio / Checkbox', ['policy_channel'])),
        /** the field is hidden (and not submitted) without this permission */
        'x-permission': Type.Optional(doc(PermissionKey, 'the field is hidden (and not submitted) without this permission key', ['admin_center.admin.permission.role.update'])),
        /** form modes that show this field (default: all) */
        'x-modes': Type.Optional(doc(Type.Array(Mode, { minItems: 1 }), 'form modes that show this field (default: all)', [['add', 'edit']])),
      },
      { additionalProperties: false },
    ),
  { $id: 'FormilySchema' },
);

/** An object schema: the root of a form or a filter form. */
export const FormilyObject = Type.Object(
  {
    type: Type.Optional(doc(Type.Literal('object'), 'always "object" (the default): the root holds named fields', ['object'])),
    properties: doc(Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), FormilySchema), 'the fields, by name (the submitted key)', [
      { name: { type: 'string', title: 'admin.role.name', 'x-decorator': 'FormItem', 'x-component': 'Input' } },
    ]),
    'x-component-props': Type.Optional(doc(Props, 'props of the form / filter bar layout', [{ labelCol: 6 }])),
  },
  { additionalProperties: false },
);

export type TFormilySchema = Static<typeof FormilySchema>;
export type TFormilyObject = Static<typeof FormilyObject>;
export type TReaction = Static<typeof Reaction>;
