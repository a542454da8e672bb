-- The ingestion API (issue 14, docs/api.md "Ingestion API"): service tokens that let the
-- customer-service platform push its records, and the platform's own id on every table it feeds.

-- token_hash: sha256 (hex) of the whole token (`bct_` + 43 base64url characters, 256 random
-- bits); the clear token is shown once at creation and never stored. token_hint: its first
-- 8 characters, so a person can tell two tokens apart in the list.
CREATE TABLE service_token (
  id           serial PRIMARY KEY,
  name         varchar(100) NOT NULL,
  token_hash   char(64) NOT NULL UNIQUE,
  token_hint   varchar(16) NOT NULL,
  scopes       text[] NOT NULL DEFAULT '{}',
  created_by   integer REFERENCES accounts (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at   timestamptz,
  revoked_by   integer REFERENCES accounts (id) ON DELETE SET NULL
);
CREATE INDEX service_token_created_idx ON service_token (id DESC);

-- external_id: the platform's id of the record, unique per shop and kind (the table is the
-- kind); ingest_hash: sha256 of the record as last ingested, so a retried batch reports
-- `unchanged` and writes nothing. Rows made in the console keep both NULL.
ALTER TABLE shop_order ADD COLUMN external_id varchar(100), ADD COLUMN ingest_hash char(64);
CREATE UNIQUE INDEX shop_order_external_uq ON shop_order (shop_id, external_id) WHERE external_id IS NOT NULL;

ALTER TABLE chat_session ADD COLUMN external_id varchar(100), ADD COLUMN ingest_hash char(64);
CREATE UNIQUE INDEX chat_session_external_uq ON chat_session (shop_id, external_id) WHERE external_id IS NOT NULL;

ALTER TABLE mail_session ADD COLUMN external_id varchar(100), ADD COLUMN ingest_hash char(64);
CREATE UNIQUE INDEX mail_session_external_uq ON mail_session (shop_id, external_id) WHERE external_id IS NOT NULL;

ALTER TABLE learn_material ADD COLUMN external_id varchar(100), ADD COLUMN ingest_hash char(64);
CREATE UNIQUE INDEX learn_material_external_uq ON learn_material (shop_id, external_id) WHERE external_id IS NOT NULL;

-- feedback and call_log had no shop: an ingested row names its shop (console rows keep NULL)
ALTER TABLE feedback ADD COLUMN shop_id integer REFERENCES shop (id) ON DELETE CASCADE,
  ADD COLUMN external_id varchar(100), ADD COLUMN ingest_hash char(64);
CREATE UNIQUE INDEX feedback_external_uq ON feedback (shop_id, external_id) WHERE external_id IS NOT NULL;

ALTER TABLE call_log ADD COLUMN shop_id integer REFERENCES shop (id) ON DELETE CASCADE,
  ADD COLUMN external_id varchar(100), ADD COLUMN ingest_hash char(64);
CREATE UNIQUE INDEX call_log_external_uq ON call_log (shop_id, external_id) WHERE external_id IS NOT NULL;
