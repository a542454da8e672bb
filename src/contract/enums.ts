/**
 * Enums (schemas/enums/*.json) as both sides use them. This module reads nothing at run time:
 * the server loads the files (server/schemas/loader.ts) and sends the enums a schema refers
 * to with `GET schema/detail` (`data.enums`); the client keeps them with the schema. These are
 * the shape and a few pure helpers (label, colour, options), so no side re-implements them.
 */

export type EnumLocale = 'zh-CN' | 'en-US';
export type EnumValue = string | number;

export interface EnumItem {
  value: EnumValue;
  label: Record<EnumLocale, string>;
  /** an antd Tag colour: a preset (`success`, `processing`, `error`, `warning`, `default`), a colour name or `#rrggbb` */
  color?: string;
  /** kept for old records, not offered in selects */
  deprecated?: boolean;
  /** what the server reads the value as (its constants select values by tag, e.g. call results "placed") */
  tags?: string[];
}

export interface EnumDef {
  $schema?: string;
  kind?: 'enum';
  id: string;
  schemaVersion: number;
  version: number;
  title?: Record<EnumLocale, string>;
  items: EnumItem[];
}

/** Enum ids shipped in schemas/enums (one file per id). Kept here so code can name them with type checking. */
export const ENUM_IDS = [
  'account_status',
  'answer_responder',
  'ai_status',
  'authorize_status',
  'call_result',
  'currency',
  'doc_learn_status',
  'env',
  'feedback_handle_status',
  'feedback_status',
  'file_storage',
  'form_mode',
  'job_kind',
  'knowledge_source_type',
  'learn_material_status',
  'learn_todo_kind',
  'mail_direction_type',
  'mail_flag',
  'message_type',
  'notification_status',
  'notify_channel_kind',
  'notify_send_state',
  'order_financial_status',
  'order_fulfillment_status',
  'permission_type',
  'plan_order_status',
  'plan_period',
  'plan_product',
  'plugin_status',
  'policy_channel',
  'policy_review_status',
  'policy_source_type',
  'product_desc_status',
  'run_change',
  'run_outcome',
  'run_responder',
  'shop_source',
  'shop_type',
  'task_mode',
  'task_status',
  'task_status_legacy',
  'ticket_learn_status',
  'train_status',
  'trainer_mode',
  'yes_no',
] as const;
export type EnumId = (typeof ENUM_IDS)[number];

/**
 * Finds the item for a value. Values from the API may arrive as strings for numeric enums
 * (query strings, form inputs), so `"1"` matches `1`; `null` / `undefined` match nothing.
 */
export function findEnumItem(def: EnumDef, value: unknown): EnumItem | undefined {
  if (value === null || value === undefined) return undefined;
  return def.items.find((i) => i.value === value) ?? def.items.find((i) => String(i.value) === String(value));
}

/** The label of a value in a locale; an unknown value is shown as itself (never hidden). */
export function enumLabel(def: EnumDef, value: unknown, locale: EnumLocale): string {
  const item = findEnumItem(def, value);
  if (item) return item.label[locale];
  return value === null || value === undefined ? '' : String(value);
}

export function enumColor(def: EnumDef, value: unknown): string | undefined {
  return findEnumItem(def, value)?.color;
}

