/**
 * The default widget registry, built by ONE call to createRegistry: Formily inputs from
 * @formily/antd-v5, layout components, our display widgets and inputs. Pass `strict: true`
 * in tests (unknown names throw) and `extra` to add widgets (a duplicate name throws).
 */
import {
  ArrayItems,
  ArrayTable,
  Checkbox,
  DatePicker,
  FormGrid,
  FormItem,
  FormLayout,
  Input,
  NumberPicker,
  Password,
  Radio,
  Select,
  Space,
  Switch,
  TimePicker,
  TreeSelect,
  Upload,
} from '@formily/antd-v5';
import { createElement, type ComponentType } from 'react';
import { createRegistry, type Registry, type WidgetEntry, type WidgetKind } from '../runtime/registry.js';
import { AuditDiff } from './display/AuditDiff.js';
import { BooleanText } from './display/BooleanText.js';
import { CopyText } from './display/CopyText.js';
import { DateTime } from './display/DateTime.js';
import { EllipsisText } from './display/EllipsisText.js';
import { EnumTag } from './display/EnumTag.js';
import { FileSize } from './display/FileSize.js';
import { Image } from './display/Image.js';
import { JsonView } from './display/JsonView.js';
import { Link } from './display/Link.js';
import { Money } from './display/Money.js';
import { Text } from './display/Text.js';
import { Transcript } from './display/Transcript.js';
import { PermissionTree } from './inputs/PermissionTree.js';
import { RemoteSelect } from './inputs/RemoteSelect.js';
import { UNKNOWN_WIDGET } from './names.js';
import { UnknownWidget } from './UnknownWidget.js';

const e = (name: string, kind: WidgetKind, component: unknown): WidgetEntry => ({
  name,
  kind,
  component: component as ComponentType<never>,
});

export function defaultEntries(): WidgetEntry[] {
  return [
    e('Input', 'input', Input),
    e('Input.TextArea', 'input', Input.TextArea),
    e('Password', 'input', Password),
    e('NumberPicker', 'input', NumberPicker),
    e('Select', 'input', Select),
    e('Radio.Group', 'input', Radio.Group),
    e('Checkbox', 'input', Checkbox),
    e('Checkbox.Group', 'input', Checkbox.Group),
    e('Switch', 'input', Switch),
    e('DatePicker', 'input', DatePicker),
    e('DatePicker.RangePicker', 'input', DatePicker.RangePicker),
    e('TimePicker', 'input', TimePicker),
    e('TreeSelect', 'input', TreeSelect),
    e('Upload', 'input', Upload),
    e('RemoteSelect', 'input', RemoteSelect),
    e('PermissionTree', 'input', PermissionTree),
    e('FormItem', 'decorator', FormItem),
    e('FormGrid', 'layout', FormGrid),
    e('FormLayout', 'layout', FormLayout),
    e('Space', 'layout', Space),
    e('ArrayTable', 'layout', ArrayTable),
    e('ArrayTable.Column', 'layout', ArrayTable.Column),
    e('ArrayTable.Addition', 'layout', ArrayTable.Addition),
    e('ArrayTable.Remove', 'layout', ArrayTable.Remove),
    e('ArrayTable.Index', 'layout', ArrayTable.Index),
    e('ArrayTable.MoveUp', 'layout', ArrayTable.MoveUp),
    e('ArrayTable.MoveDown', 'layout', ArrayTable.MoveDown),
    e('ArrayItems', 'layout', ArrayItems),
    e('ArrayItems.Item', 'layout', ArrayItems.Item),
    e('ArrayItems.Addition', 'layout', ArrayItems.Addition),
    e('ArrayItems.Remove', 'layout', ArrayItems.Remove),
    e('ArrayItems.Index', 'layout', ArrayItems.Index),
    e('ArrayItems.MoveUp', 'layout', ArrayItems.MoveUp),
    e('ArrayItems.MoveDown', 'layout', ArrayItems.MoveDown),
    e('Text', 'display', Text),
    e('EnumTag', 'display', EnumTag),
    e('DateTime', 'display', DateTime),
    e('FileSize', 'display', FileSize),
    e('Money', 'display', Money),
    e('BooleanText', 'display', BooleanText),
    e('Link', 'display', Link),
    e('Image', 'display', Image),
    e('CopyText', 'display', CopyText),
    e('EllipsisText', 'display', EllipsisText),
    e('JsonView', 'display', JsonView),
    e('AuditDiff', 'display', AuditDiff),
    e('Transcript', 'display', Transcript),
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
 * the library export is never mutated.
 */
export function formilyComponents(registry: Registry): Record<string, unknown> {
  const flat = registry.components();
  const out: Record<string, unknown> = {};
  const parents = new Set(Object.keys(flat).filter((n) => n.includes('.')).map((n) => n.split('.')[0]));
  for (const [name, comp] of Object.entries(flat)) {
    if (name.includes('.')) continue;
    if (parents.has(name)) {
      const Wrapped = (props: Record<string, unknown>) => createElement(comp, props);
      Wrapped.displayName = name;
      out[name] = Wrapped;
    } else out[name] = comp;
  }
  for (const [name, comp] of Object.entries(flat)) {
    if (!name.includes('.')) continue;
    const [parent, child] = name.split('.');
    out[parent] ??= {};
    (out[parent] as Record<string, unknown>)[child] = comp;
  }
  return out;
}
