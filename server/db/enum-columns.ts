/**
 * Which database columns hold which enum's values (`table.column`, by enum id of schemas/enums).
 * The values themselves live only in the enum files; server/db/enum-constraints.test.ts checks that
 * each column listed here has a CHECK constraint allowing exactly its enum's values (migration
 * 0021_enum_checks.sql added the missing ones). A column holding enum values that is not listed:
 * model_call.channel (a log of what the gateway was asked, written on every model call) and the
 * voice / lab / session tables, whose enums are not checked yet.
 */
import type { EnumId } from '../../src/contract/enums.js';

export const ENUM_COLUMNS: Partial<Record<EnumId, readonly string[]>> = {
  account_status: ['accounts.status'],
  ai_status: ['shop.ai_status'],
  authorize_status: ['shop.authorize_status'],
  call_result: ['call_log.result', 'call_target.result'],
  currency: ['plan.currency', 'plan_order.currency'],
  doc_learn_status: ['learn_doc.status'],
  env: ['shop.env'],
  file_storage: ['stored_file.storage'],
  feedback_handle_status: ['feedback.handle_status'],
  feedback_status: ['feedback.status'],
  learn_material_status: ['learn_material.status'],
  notification_status: ['notification.status'],
  notify_channel_kind: ['notification_send.channel'],
  notify_send_state: ['notification_send.state'],
  order_financial_status: ['shop_order.financial_status'],
  order_fulfillment_status: ['shop_order.fulfillment_status'],
  permission_type: ['permissions.permission_type'],
  plan_order_status: ['plan_order.status'],
  plan_period: ['plan.period'],
  plan_product: ['plan.product'],
  plugin_status: ['shop.plugin_status'],
  policy_channel: [
    'policy.channel', 'learn_policy.channel', 'learn_material.channel', 'learn_knowledge.channel', 'chat_assistant.channel',
    'config_fallback.channel', 'config_model_strategy.channel', 'config_divert.channel', 'reply_template.channel',
  ],
  policy_review_status: ['learn_policy.status', 'learn_policy_product.status'],
  policy_source_type: ['policy.source_type', 'learn_material.source_type', 'config_auto_learn.source_type'],
  product_desc_status: ['product_desc.status'],
  run_outcome: ['text_task_result.outcome', 'text_rating_task_result.outcome'],
  shop_source: ['shop.creation_source'],
  /** notification.target_types is a smallint[]: its constraint is `target_types <@ ARRAY[…]` */
  shop_type: ['shop.type', 'notification.target_types'],
  ticket_learn_status: ['learn_material.ticket_learn'],
};
