/**
 * The default widget registry, built by ONE call to createRegistry: Formily inputs from
 * @formily/antd-v5, layout components, our display widgets and inputs. Pass `strict: true`
 * in tests (unknown names throw) and `extra` to add widgets (a duplicate name throws).
 *
 * Only the small display widgets without antd dependencies are bundled with the runtime;
 * every other widget is its own chunk, loaded when a schema names it (see ./preload.ts:
 * `preloadSchemaWidgets` loads them once the schema is loaded, before the page renders).
 */
import { FormLayout } from '@formily/antd-v5/esm/form-layout/index.js';
import { createElement, type ComponentType } from 'react';
import { createRegistry, type Registry, type WidgetEntry, type WidgetKind } from '../runtime/registry.js';
import { DateTime } from './display/DateTime.js';
import { FileSize } from './display/FileSize.js';
import { JsonView } from './display/JsonView.js';
import { Link } from './display/Link.js';
import { Money } from './display/Money.js';
import { Text } from './display/Text.js';
import { UNKNOWN_WIDGET } from '../contract/widget-names.js';
import { UnknownWidget } from './UnknownWidget.js';

type Loaded = ComponentType<never>;
type Member = Record<string, unknown>;

const e = (name: string, kind: WidgetKind, component: unknown): WidgetEntry => ({
  name,
  kind,
  component: component as Loaded,
});

/** A lazy entry: `load` imports the module, `pick` takes the component out of it. */
const lazy = <M>(name: string, kind: WidgetKind, load: () => Promise<M>, pick: (m: M) => unknown): WidgetEntry => ({
  name,
  kind,
  load: () => load().then((m) => pick(m) as Loaded),
});

/** `Parent.Child` entries of one module, e.g. ArrayTable.Column. */
const member = (parent: unknown, child: string): unknown => (child ? (parent as Member)[child] : parent);

// one dynamic import per Formily module (deep paths: each is its own chunk, not the whole package)
const formily = {
  // the bare Input (filter forms), apart from Formily's Input module with its TextArea
  Input: () => import('./inputs/FormilyInput.js').then((m) => m.Input),
  InputWithTextArea: () => import('@formily/antd-v5/esm/input/index.js').then((m) => m.Input),
  Password: () => import('@formily/antd-v5/esm/password/index.js').then((m) => m.Password),
  NumberPicker: () => import('@formily/antd-v5/esm/number-picker/index.js').then((m) => m.NumberPicker),
  Select: () => import('@formily/antd-v5/esm/select/index.js').then((m) => m.Select),
  Radio: () => import('@formily/antd-v5/esm/radio/index.js').then((m) => m.Radio),
  Checkbox: () => import('@formily/antd-v5/esm/checkbox/index.js').then((m) => m.Checkbox),
  Switch: () => import('@formily/antd-v5/esm/switch/index.js').then((m) => m.Switch),
  DatePicker: () => import('@formily/antd-v5/esm/date-picker/index.js').then((m) => m.DatePicker),
  TimePicker: () => import('@formily/antd-v5/esm/time-picker/index.js').then((m) => m.TimePicker),
  TreeSelect: () => import('@formily/antd-v5/esm/tree-select/index.js').then((m) => m.TreeSelect),
  Upload: () => import('@formily/antd-v5/esm/upload/index.js').then((m) => m.Upload),
  FormItem: () => import('@formily/antd-v5/esm/form-item/index.js').then((m) => m.FormItem),
  FormGrid: () => import('@formily/antd-v5/esm/form-grid/index.js').then((m) => m.FormGrid),
  Space: () => import('@formily/antd-v5/esm/space/index.js').then((m) => m.Space),
  ArrayTable: () => import('@formily/antd-v5/esm/array-table/index.js').then((m) => m.ArrayTable),
  ArrayItems: () => import('@formily/antd-v5/esm/array-items/index.js').then((m) => m.ArrayItems),
} satisfies Record<string, () => Promise<unknown>>;

/** `Family` or `Family.Child` from one of the Formily modules above. */
const fromFormily = (name: string, kind: WidgetKind): WidgetEntry => {
  const [family, child = ''] = name.split('.') as [keyof typeof formily, string?];
  return lazy(name, kind, formily[family], (c) => member(c, child));
};

export function defaultEntries(): WidgetEntry[] {
  return [
    fromFormily('Input', 'input'),
    lazy('Input.TextArea', 'input', formily.InputWithTextArea, (c) => member(c, 'TextArea')),
    fromFormily('Password', 'input'),
    fromFormily('NumberPicker', 'input'),
    fromFormily('Select', 'input'),
    fromFormily('Radio.Group', 'input'),
    fromFormily('Checkbox', 'input'),
    fromFormily('Checkbox.Group', 'input'),
    fromFormily('Switch', 'input'),
    fromFormily('DatePicker', 'input'),
    // Formily's range picker with the date presets (today, yesterday, last 7 days, this month)
    lazy('DatePicker.RangePicker', 'input', () => import('./inputs/DateRange.js'), (m) => m.DateRange),
    fromFormily('TimePicker', 'input'),
    fromFormily('TreeSelect', 'input'),
    fromFormily('Upload', 'input'),
    lazy('RemoteSelect', 'input', () => import('./inputs/RemoteSelect.js'), (m) => m.RemoteSelect),
    lazy('RemoteCheckboxGroup', 'input', () => import('./inputs/RemoteCheckboxGroup.js'), (m) => m.RemoteCheckboxGroup),
    lazy('RemoteRadioGroup', 'input', () => import('./inputs/RemoteRadioGroup.js'), (m) => m.RemoteRadioGroup),
    lazy('PermissionTree', 'input', () => import('./inputs/PermissionTree.js'), (m) => m.PermissionTree),
    lazy('ImageUpload', 'input', () => import('./inputs/ImageUpload.js'), (m) => m.ImageUpload),
    fromFormily('FormItem', 'decorator'),
    fromFormily('FormGrid', 'layout'),
    e('FormLayout', 'layout', FormLayout), // the list's filter form uses it directly
    fromFormily('Space', 'layout'),
    fromFormily('ArrayTable', 'layout'),
    fromFormily('ArrayTable.Column', 'layout'),
    fromFormily('ArrayTable.Addition', 'layout'),
    fromFormily('ArrayTable.Remove', 'layout'),
    fromFormily('ArrayTable.Index', 'layout'),
    fromFormily('ArrayTable.MoveUp', 'layout'),
    fromFormily('ArrayTable.MoveDown', 'layout'),
    fromFormily('ArrayItems', 'layout'),
    fromFormily('ArrayItems.Item', 'layout'),
    fromFormily('ArrayItems.Addition', 'layout'),
    fromFormily('ArrayItems.Remove', 'layout'),
    fromFormily('ArrayItems.Index', 'layout'),
    fromFormily('ArrayItems.MoveUp', 'layout'),
    fromFormily('ArrayItems.MoveDown', 'layout'),
    e('Text', 'display', Text),
    lazy('EnumTag', 'display', () => import('./display/EnumTag.js'), (m) => m.EnumTag),
    e('DateTime', 'display', DateTime),
    e('FileSize', 'display', FileSize),
    e('Money', 'display', Money),
    lazy('BooleanText', 'display', () => import('./display/BooleanText.js'), (m) => m.BooleanText),
    e('Link', 'display', Link),
    lazy('Image', 'display', () => import('./display/Image.js'), (m) => m.Image),
    lazy('CopyText', 'display', () => import('./display/CopyText.js'), (m) => m.CopyText),
    lazy('EllipsisText', 'display', () => import('./display/EllipsisText.js'), (m) => m.EllipsisText),
    e('JsonView', 'display', JsonView),
    lazy('AuditDiff', 'display', () => import('./display/AuditDiff.js'), (m) => m.AuditDiff),
    lazy('Transcript', 'display', () => import('./display/Transcript.js'), (m) => m.Transcript),
    lazy('Progress', 'display', () => import('./display/Progress.js'), (m) => m.Progress),
    e(UNKNOWN_WIDGET, 'display', UnknownWidget),
  ];
}

export interface DefaultRegistryOptions {
  strict?: boolean;
  extra?: WidgetEntry[];
}

export function createDefaultRegistry(opts: DefaultRegistryOptions = {}): Registry {
  return createRegistry([...defaultEntries(), ...(opts.extra ?? [])], {
    strict: opts.strict,
    fallback: ({ name, pointer }) =>
      function Unknown() {
        return createElement(UnknownWidget, { name, pointer });
      },
  });
}

/**
 * Formily looks components up by dotted path (`Input.TextArea` → components.Input.TextArea),
 * so flat names are nested here; a parent that is itself registered gets a thin wrapper so
 * the library export is never mutated — unless it already carries each registered child as
 * that member, then it is used as is; a forwardRef / memo parent (Formily's connected inputs) is
 * copied instead of wrapped.
 * A widget whose code is loaded is handed over itself, not its lazy wrapper: no extra
 * components per field (a 300-field form: ≈ 800 fibers fewer).
 */
export function formilyComponents(registry: Registry): Record<string, unknown> {
  const flat: Record<string, unknown> = registry.components();
  for (const name of Object.keys(flat)) flat[name] = registry.loaded(name) ?? flat[name];
  const out: Record<string, unknown> = {};
  const children = new Map<string, string[]>();
  for (const n of Object.keys(flat)) {
    if (!n.includes('.')) continue;
    const [parent, child] = n.split('.');
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  for (const [name, comp] of Object.entries(flat)) {
    if (name.includes('.')) continue;
    const kids = children.get(name);
    const carries = kids?.every((k) => (comp as Record<string, unknown>)[k] === flat[`${name}.${k}`]);
    if (kids && !carries && typeof comp === 'object' && comp !== null && '$$typeof' in comp) {
      // a forwardRef / memo (Formily's connect): a copy of it is the same component, and takes
      // the children without a wrapper's extra fiber per field or touching the library's export
      out[name] = { ...comp };
    } else if (kids && !carries) {
      const Wrapped = (props: Record<string, unknown>) => createElement(comp as ComponentType<Record<string, unknown>>, props);
      Wrapped.displayName = name;
      out[name] = Wrapped;
    } else out[name] = comp;
  }
  for (const [name, comp] of Object.entries(flat)) {
    if (!name.includes('.')) continue;
    const [parent, child] = name.split('.');
    out[parent] ??= {};
    const holder = out[parent] as Record<string, unknown>;
    if (holder[child] !== comp) holder[child] = comp;
  }
  return out;
}
