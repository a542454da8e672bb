-- CHECK constraints on the enum-backed business columns: each allows exactly the values of its
-- enum file (schemas/enums/<id>.json, the one home of the values; which columns hold which enum:
-- server/db/enum-columns.ts). server/db/enum-constraints.test.ts reads them back from pg_constraint
-- and compares. Changing an enum's values means a new migration replacing its constraints
-- (DROP / ADD), in the same change as the file. The names are PostgreSQL's own for column
-- constraints (<table>_<column>_check). Existing rows are checked when each constraint is added:
-- the server has validated these columns against the same value sets on every write path.

ALTER TABLE chat_assistant ADD CONSTRAINT chat_assistant_channel_check CHECK (channel IN ('chat', 'email'));  -- policy_channel
ALTER TABLE config_auto_learn ADD CONSTRAINT config_auto_learn_source_type_check CHECK (source_type IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));  -- policy_source_type
ALTER TABLE config_divert ADD CONSTRAINT config_divert_channel_check CHECK (channel IN ('chat', 'email'));  -- policy_channel
ALTER TABLE config_fallback ADD CONSTRAINT config_fallback_channel_check CHECK (channel IN ('chat', 'email'));  -- policy_channel
ALTER TABLE config_model_strategy ADD CONSTRAINT config_model_strategy_channel_check CHECK (channel IN ('chat', 'email'));  -- policy_channel
ALTER TABLE feedback ADD CONSTRAINT feedback_handle_status_check CHECK (handle_status IN (0, 1, 2, 3));  -- feedback_handle_status
ALTER TABLE feedback ADD CONSTRAINT feedback_status_check CHECK (status IN ('pending', 'processing', 'processed', 'no_need', 'auto_processing', 'auto_pending_confirm', 'auto_deleted', 'incomplete'));  -- feedback_status
ALTER TABLE learn_doc ADD CONSTRAINT learn_doc_status_check CHECK (status IN (0, 1, 2));  -- doc_learn_status
ALTER TABLE learn_knowledge ADD CONSTRAINT learn_knowledge_channel_check CHECK (channel IN ('chat', 'email'));  -- policy_channel
ALTER TABLE learn_material ADD CONSTRAINT learn_material_channel_check CHECK (channel IN ('chat', 'email'));  -- policy_channel
ALTER TABLE learn_material ADD CONSTRAINT learn_material_source_type_check CHECK (source_type IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));  -- policy_source_type
ALTER TABLE learn_material ADD CONSTRAINT learn_material_status_check CHECK (status IN (0, 1, 2));  -- learn_material_status
ALTER TABLE learn_material ADD CONSTRAINT learn_material_ticket_learn_check CHECK (ticket_learn IN (0, 1, 2));  -- ticket_learn_status
ALTER TABLE learn_policy ADD CONSTRAINT learn_policy_channel_check CHECK (channel IN ('chat', 'email'));  -- policy_channel
ALTER TABLE learn_policy ADD CONSTRAINT learn_policy_status_check CHECK (status IN (0, 1, 2));  -- policy_review_status
ALTER TABLE learn_policy_product ADD CONSTRAINT learn_policy_product_status_check CHECK (status IN (0, 1, 2));  -- policy_review_status
ALTER TABLE notification ADD CONSTRAINT notification_status_check CHECK (status IN (0, 1, 2));  -- notification_status
ALTER TABLE notification ADD CONSTRAINT notification_target_types_check CHECK (target_types <@ ARRAY[1, 2, 3, 4]::smallint[]);  -- shop_type
ALTER TABLE plan ADD CONSTRAINT plan_currency_check CHECK (currency IN ('USD', 'CNY', 'EUR', 'GBP', 'JPY'));  -- currency
ALTER TABLE plan ADD CONSTRAINT plan_period_check CHECK (period IN ('month', 'quarter', 'year'));  -- plan_period
ALTER TABLE plan ADD CONSTRAINT plan_product_check CHECK (product IN ('text', 'voice'));  -- plan_product
ALTER TABLE plan_order ADD CONSTRAINT plan_order_currency_check CHECK (currency IN ('USD', 'CNY', 'EUR', 'GBP', 'JPY'));  -- currency
ALTER TABLE plan_order ADD CONSTRAINT plan_order_status_check CHECK (status IN (0, 1, 2, 3, 4));  -- plan_order_status
ALTER TABLE policy ADD CONSTRAINT policy_channel_check CHECK (channel IN ('chat', 'email'));  -- policy_channel
ALTER TABLE policy ADD CONSTRAINT policy_source_type_check CHECK (source_type IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));  -- policy_source_type
ALTER TABLE product_desc ADD CONSTRAINT product_desc_status_check CHECK (status IN (0, 1, 2, 3));  -- product_desc_status
ALTER TABLE shop ADD CONSTRAINT shop_ai_status_check CHECK (ai_status IN (0, 1));  -- ai_status
ALTER TABLE shop ADD CONSTRAINT shop_authorize_status_check CHECK (authorize_status IN (0, 1, 2));  -- authorize_status
ALTER TABLE shop ADD CONSTRAINT shop_creation_source_check CHECK (creation_source IN (0, 1, 2));  -- shop_source
ALTER TABLE shop ADD CONSTRAINT shop_env_check CHECK (env IN ('dev', 'pre', 'prod', 'pre2', 'pre3'));  -- env
ALTER TABLE shop ADD CONSTRAINT shop_plugin_status_check CHECK (plugin_status IN (0, 1, 2));  -- plugin_status
ALTER TABLE shop ADD CONSTRAINT shop_type_check CHECK (type IN (1, 2, 3, 4));  -- shop_type
ALTER TABLE shop_order ADD CONSTRAINT shop_order_financial_status_check CHECK (financial_status IN ('pending', 'authorized', 'partially_paid', 'paid', 'partially_refunded', 'refunded', 'voided', 'expired'));  -- order_financial_status
ALTER TABLE shop_order ADD CONSTRAINT shop_order_fulfillment_status_check CHECK (fulfillment_status IN ('unfulfilled', 'partial', 'fulfilled', 'restocked'));  -- order_fulfillment_status
