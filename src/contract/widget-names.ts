/**
 * Every widget name a schema may use (`x-component`, `x-decorator`, column / item `widget`),
 * as plain data for the Node-side checker and the live watcher (no React imports; in src/contract so the server may
 * read it). A unit test checks it equals
 * the default registry's keys.
 */
export const INPUT_WIDGETS = [
  'Input',
  'Input.TextArea',
  'Password',
  'NumberPicker',
  'Select',
  'Radio.Group',
  'Checkbox',
  'Checkbox.Group',
  'Switch',
  'DatePicker',
  'DatePicker.RangePicker',
  'TimePicker',
  'TreeSelect',
  'Upload',
  'RemoteSelect',
  'RemoteCheckboxGroup',
  'RemoteRadioGroup',
  'PermissionTree',
  'ImageUpload',
] as const;

export const LAYOUT_WIDGETS = [
  'FormItem',
  'FormGrid',
  'FormLayout',
  'Space',
  'ArrayTable',
  'ArrayTable.Column',
  'ArrayTable.Addition',
  'ArrayTable.Remove',
  'ArrayTable.Index',
  'ArrayTable.MoveUp',
  'ArrayTable.MoveDown',
  'ArrayItems',
  'ArrayItems.Item',
  'ArrayItems.Addition',
  'ArrayItems.Remove',
  'ArrayItems.Index',
  'ArrayItems.MoveUp',
  'ArrayItems.MoveDown',
] as const;

export const DISPLAY_WIDGETS = [
  'Text',
  'EnumTag',
  'DateTime',
  'FileSize',
  'Money',
  'BooleanText',
  'Link',
  'Image',
  'CopyText',
  'EllipsisText',
  'JsonView',
  'AuditDiff',
  'Transcript',
  'Progress',
] as const;

/** Drawn in place of an unknown name (never named by schemas). */
export const UNKNOWN_WIDGET = 'UnknownWidget';

export const WIDGET_NAMES: readonly string[] = [...INPUT_WIDGETS, ...LAYOUT_WIDGETS, ...DISPLAY_WIDGETS, UNKNOWN_WIDGET];
