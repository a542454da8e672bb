-- Indexes for the remaining declared list filters / sorts (found by server/resources/explain-check.ts
-- on the large seed: each of these was a sequential scan at 100k shops / 1M orders).
CREATE INDEX shop_name_idx ON shop (name);
CREATE INDEX shop_plugin_activated_idx ON shop (plugin_activated_at);
CREATE INDEX shop_authorize_expires_idx ON shop (authorize_expires_at);
CREATE INDEX shop_active_idx ON shop (active, id);
CREATE INDEX shop_creation_source_idx ON shop (creation_source, id);
CREATE INDEX merchant_user_name_idx ON merchant_user (name);
CREATE INDEX merchant_user_status_idx ON merchant_user (status, id);
CREATE INDEX mail_account_created_idx ON mail_account (created_at);
CREATE INDEX learn_material_user_idx ON learn_material (user_id, id);
