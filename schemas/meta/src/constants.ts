/** Language constants without TypeBox (the client imports these cheaply). */

/** Language versions this runtime understands. */
export const SUPPORTED_SCHEMA_VERSIONS: readonly number[] = [1];
export const CURRENT_SCHEMA_VERSION = 1;

/** Property names whose string values are i18n keys (anywhere in a schema file). */
export const TEXT_KEYS: readonly string[] = [
  'title',
  'label',
  'description',
  'placeholder',
  'confirm',
  'successMessage',
  'emptyText',
  'tooltip',
  'message',
  'okText',
  'cancelText',
  'x-content',
  'addonBefore',
  'addonAfter',
];
