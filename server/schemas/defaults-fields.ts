/**
 * The defaults of fields (issue 22), in `filters` and in a form's `schema` at any depth under
 * `properties` / `items`: the type a widget holds, the widget a type or an option list takes,
 * the shop picker's call, a textarea's rows, a filter's clearing and width, the range filter's
 * split into `<name>_from` / `<name>_to`, the FormItem decorator. server/schemas/defaults.ts
 * lists every default and applies them.
 */

export const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Array containers render their own items: no FormItem around them. */
const NO_DECORATOR_COMPONENTS = new Set(['ArrayItems', 'ArrayTable']);

/** The value type a widget holds, for a field that names its widget and no type. */
export const TYPE_OF_WIDGET: Readonly<Record<string, string>> = {
  Input: 'string',
  'Input.TextArea': 'string',
  Password: 'string',
  DatePicker: 'string',
  TimePicker: 'string',
  NumberPicker: 'number',
  Switch: 'boolean',
  'DatePicker.RangePicker': 'array',
  'Checkbox.Group': 'array',
  ArrayItems: 'array',
  ArrayTable: 'array',
  RemoteSelect: 'number',
};

/** The shop picker's call: a RemoteSelect naming this api gets these params and label key. */
export const SHOP_LIST = { api: 'GET shop-list', params: { env: 'all' }, labelKey: 'label' } as const;

/** Filter widgets that clear by default (allowClear). */
export const CLEARING_FILTERS: ReadonlySet<string> = new Set(['Input', 'Select']);

/** Width in px of a filter widget that does not say its own (x-component-props.style.width). */
export const FILTER_WIDTH: Readonly<Record<string, number>> = { RemoteSelect: 220, Select: 120 };

/** Width in px of a `range` filter that does not say its own. */
export const RANGE_FILTER_WIDTH = 260;

/** What the defaults may look up: the file's folder under schemas/, and enum files. */
export interface DefaultsContext {
  /** path of the file relative to schemas/, posix (e.g. `pages/admin_center/roles.json`) */
  file?: string;
  /** the values of an enum file (undefined when there is none) */
  enumValues?: (id: string) => unknown[] | undefined;
}

export function fieldDefaults(node: Record<string, unknown>, filter: boolean, ranges: string[], ctx: DefaultsContext): void {
  if (isObject(node.properties)) {
    for (const [name, f] of Object.entries(node.properties)) {
      if (!isObject(f)) continue;
      fieldDefault(f, filter, ctx);
      if (f.range === true) {
        delete f.range;
        ranges.push(name);
      }
      fieldDefaults(f, filter, ranges, ctx);
    }
  }
  if (isObject(node.items)) fieldDefaults(node.items, filter, ranges, ctx);
}

function fieldDefault(f: Record<string, unknown>, filter: boolean, ctx: DefaultsContext): void {
  if (f.type === 'range') {
    f.type = 'array';
    f['x-component'] ??= 'DatePicker.RangePicker';
    if (filter) {
      // marks the field for splitRanges (removed there)
      f.range = true;
      const props = isObject(f['x-component-props']) ? f['x-component-props'] : {};
      const style = isObject(props.style) ? props.style : {};
      style.width ??= RANGE_FILTER_WIDTH;
      f['x-component-props'] = { ...props, style };
    }
  }
  const hasOptions = f['x-enum'] !== undefined || f.enum !== undefined;
  if (hasOptions && f['x-component'] === undefined) f['x-component'] = 'Select';
  if (f.type === undefined && f['x-component'] === undefined && !hasOptions && f.properties === undefined && f.items === undefined) {
    f.type = 'string';
  }
  if (f.type === 'string' && f['x-component'] === undefined && !hasOptions) f['x-component'] = 'Input';
  const comp = f['x-component'];
  if (f.type === undefined && typeof comp === 'string' && TYPE_OF_WIDGET[comp]) f.type = TYPE_OF_WIDGET[comp];
  if (comp === 'RemoteSelect' && isObject(f['x-component-props']) && f['x-component-props'].api === SHOP_LIST.api) {
    // the shop picker: every one reads the session's shop list (src/runtime/session-data.ts)
    f['x-component-props'].params ??= { ...SHOP_LIST.params };
    f['x-component-props'].labelKey ??= SHOP_LIST.labelKey;
  }
  if (comp === 'Input.TextArea') {
    // a textarea's own default height (HTML rows 2), said so the served schema shows it
    const props = isObject(f['x-component-props']) ? f['x-component-props'] : {};
    if (props.autoSize === undefined) props.rows ??= 2;
    f['x-component-props'] = props;
  }
  if (f.type === undefined && hasOptions) {
    const values = Array.isArray(f.enum) ? f.enum.map((o) => (isObject(o) ? o.value : o)) : ctx.enumValues?.(String(f['x-enum']));
    const type = typeOfValues(values);
    if (type) f.type = type;
  }
  if (filter && typeof comp === 'string') {
    const clears = CLEARING_FILTERS.has(comp);
    const width = FILTER_WIDTH[comp];
    if (clears || width !== undefined) {
      const props = isObject(f['x-component-props']) ? f['x-component-props'] : {};
      if (clears) props.allowClear ??= true;
      if (width !== undefined) {
        const style = isObject(props.style) ? props.style : {};
        style.width ??= width;
        props.style = style;
      }
      f['x-component-props'] = props;
    }
  }
  if (typeof comp === 'string' && f.type !== 'void' && !NO_DECORATOR_COMPONENTS.has(comp) && !('x-decorator' in f)) {
    f['x-decorator'] = 'FormItem';
  }
  if (f['x-decorator'] === null) delete f['x-decorator'];
}

/** `number`, `string` or `boolean` when every value is one, else undefined (the field says its type). */
function typeOfValues(values: unknown[] | undefined): string | undefined {
  const types = new Set((values ?? []).map((v) => typeof v));
  const [t] = types;
  return types.size === 1 && (t === 'number' || t === 'string' || t === 'boolean') ? t : undefined;
}

/** A range filter `x` sends `x_from` / `x_to` (the page's own params of those names win). */
export function splitRanges(doc: Record<string, unknown>, names: readonly string[]): void {
  if (!isObject(doc.data)) return;
  const params = isObject(doc.data.params) ? doc.data.params : {};
  for (const n of names) {
    params[`${n}_from`] ??= `{{ filters.${n}[0] }}`;
    params[`${n}_to`] ??= `{{ filters.${n}[1] }}`;
  }
  doc.data.params = params;
}

