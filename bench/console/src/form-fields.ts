/**
 * The 300-field form both form pages render: Formily JSON schema properties, a third of them
 * required, a mix of inputs, selects, number inputs and date pickers. `title` is an i18n key
 * (the schema language requires keys); `label()` is what both pages show for it.
 */
export const FIELD_COUNT = 300;

export interface FieldSchema {
  type: 'string' | 'number';
  title: string;
  required?: boolean;
  'x-decorator': 'FormItem';
  'x-component': 'Input' | 'Select' | 'NumberPicker' | 'DatePicker';
  'x-component-props'?: Record<string, unknown>;
  enum?: Array<{ label: string; value: string }>;
  'x-index': number;
}

const OPTION_VALUES = ['alpha', 'beta', 'gamma', 'delta'];

/** Titles and option labels are i18n keys for our schema, plain text for the bare Formily form. */
export function formProperties(n = FIELD_COUNT, text: (key: string) => string = (key) => key): Record<string, FieldSchema> {
  const titleOf = (i: number) => text(`bench.form.f${i}`);
  const OPTIONS = OPTION_VALUES.map((v) => ({ label: text(`bench.opt.${v}`), value: v }));
  const props: Record<string, FieldSchema> = {};
  for (let i = 0; i < n; i++) {
    const kind = i % 4;
    const common = { title: titleOf(i), 'x-decorator': 'FormItem' as const, 'x-index': i, ...(i % 3 === 0 ? { required: true } : {}) };
    props[`f${i}`] =
      kind === 1
        ? { ...common, type: 'string', 'x-component': 'Select', enum: OPTIONS }
        : kind === 2
          ? { ...common, type: 'number', 'x-component': 'NumberPicker' }
          : kind === 3
            ? { ...common, type: 'string', 'x-component': 'DatePicker' }
            : { ...common, type: 'string', 'x-component': 'Input', 'x-component-props': { maxLength: 100 } };
  }
  return props;
}

export const label = (key: string): string => key.replace(/^bench\.form\.f(\d+)$/, 'Field $1').replace(/^bench\.opt\./, '');
