-- Shop platforms (issue 24): a shop connected to its platform (Shopify's Admin GraphQL API, or its
-- built-in sandbox emulator), syncs that pull from it with a resumable state, the log of what each
-- sync or webhook brought in, and the webhooks already applied (de-duplicated by their id).
-- server/shops (adapters, client, emulator), server/resources/shopify (routes, the sync job).

-- One connection per shop. Tokens are stored encrypted (server/ai/secrets.ts, AES-256-GCM) and
-- never read back: the *_mask columns are what replies show.
CREATE TABLE shop_connection (
  shop_id            integer PRIMARY KEY REFERENCES shop (id) ON DELETE CASCADE,
  platform           varchar(20) NOT NULL CHECK (platform IN ('shopify', 'douyin')),
  -- shopify: the shop's permanent domain, e.g. example.myshopify.com
  shop_domain        varchar(255) NOT NULL,
  api_version        varchar(20) NOT NULL DEFAULT '2025-01',
  access_token_enc   text NOT NULL DEFAULT '',
  access_token_mask  varchar(40) NOT NULL DEFAULT '',
  -- the app's client secret, which signs the webhooks (X-Shopify-Hmac-Sha256)
  client_secret_enc  text NOT NULL DEFAULT '',
  client_secret_mask varchar(40) NOT NULL DEFAULT '',
  -- true: the built-in sandbox emulator answers instead of the platform (demo data)
  sandbox            boolean NOT NULL DEFAULT false,
  status             varchar(20) NOT NULL DEFAULT 'connected' CHECK (status IN ('connected', 'uninstalled')),
  -- incremental sync: the newest updatedAt pulled so far, per kind (null: never synced)
  products_synced_to timestamptz,
  orders_synced_to   timestamptz,
  policies_synced_to timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX shop_connection_domain_uq ON shop_connection (platform, lower(shop_domain));

-- Where a running sync is (one row per shop.sync job): the phase, the cursor of the last page
-- committed and the figures so far, written in the same transaction as that page's rows, so a
-- sync delivered again after a crash goes on from there and counts nothing twice.
CREATE TABLE shop_sync_state (
  job_id     bigint PRIMARY KEY,
  shop_id    integer NOT NULL REFERENCES shop (id) ON DELETE CASCADE,
  phase      varchar(20) NOT NULL,
  cursor     text,
  -- the watermarks the sync started from, per kind (ISO times or null)
  since      jsonb NOT NULL DEFAULT '{}',
  -- the newest updatedAt seen so far, per kind
  high       jsonb NOT NULL DEFAULT '{}',
  counts     jsonb NOT NULL DEFAULT '{}',
  pages      integer NOT NULL DEFAULT 0,
  throttled  integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shop_sync_state_shop_idx ON shop_sync_state (shop_id);

-- What came in: one row per record a sync created, changed or failed on, or a webhook applied.
CREATE TABLE shop_sync_item (
  id          bigserial PRIMARY KEY,
  job_id      bigint,
  shop_id     integer NOT NULL REFERENCES shop (id) ON DELETE CASCADE,
  via         varchar(10) NOT NULL CHECK (via IN ('sync', 'webhook')),
  entity      varchar(10) NOT NULL CHECK (entity IN ('product', 'order', 'policy')),
  external_id varchar(100) NOT NULL,
  action      varchar(10) NOT NULL CHECK (action IN ('created', 'updated', 'failed')),
  title       varchar(300) NOT NULL DEFAULT '',
  error       varchar(1000) NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX shop_sync_item_job_uq ON shop_sync_item (job_id, entity, external_id) WHERE job_id IS NOT NULL;
CREATE INDEX shop_sync_item_shop_idx ON shop_sync_item (shop_id, id);

-- Webhooks applied, by X-Shopify-Webhook-Id: a delivery repeated by the platform changes nothing.
CREATE TABLE shop_webhook (
  webhook_id  varchar(100) PRIMARY KEY,
  shop_id     integer REFERENCES shop (id) ON DELETE CASCADE,
  topic       varchar(60) NOT NULL,
  outcome     varchar(20) NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shop_webhook_shop_idx ON shop_webhook (shop_id, received_at);

-- Product texts and policies pulled from a platform become the shop's knowledge through the
-- existing sources (product_desc, policy; their triggers queue them for indexing). external_id is
-- the platform's id (a Shopify GID), ingest_hash the record as last written: unchanged → no write.
ALTER TABLE product_desc ADD COLUMN external_id varchar(100), ADD COLUMN ingest_hash char(64);
CREATE UNIQUE INDEX product_desc_external_uq ON product_desc (shop_id, external_id) WHERE external_id IS NOT NULL;
ALTER TABLE policy ADD COLUMN external_id varchar(100), ADD COLUMN ingest_hash char(64);
CREATE UNIQUE INDEX policy_external_uq ON policy (shop_id, external_id) WHERE external_id IS NOT NULL;

-- Calls (issue 24): a dry-run attempt has its own result, 5 "dry run (not dialled)", instead of
-- 2 "failure (other)"; call_result's values are now held by a CHECK like the other enums.
UPDATE call_log SET result = 5 WHERE dry_run AND result = 2 AND provider_status = 'dry-run';
UPDATE call_target g SET result = 5
  WHERE g.result = 2 AND EXISTS (SELECT 1 FROM call_log l WHERE l.target_id = g.id AND l.dry_run)
    AND NOT EXISTS (SELECT 1 FROM call_log l WHERE l.target_id = g.id AND NOT l.dry_run);
ALTER TABLE call_log ADD CONSTRAINT call_log_result_check CHECK (result IN (1, 2, 3, 4, 5));  -- call_result
ALTER TABLE call_target ADD CONSTRAINT call_target_result_check CHECK (result IN (1, 2, 3, 4, 5));  -- call_result
