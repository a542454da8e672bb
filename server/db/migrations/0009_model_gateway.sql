-- The model gateway (server/ai/gateway, docs/ai.md "Model servers" and "The gateway").

-- A model server is an OpenAI-compatible endpoint. The API key is stored encrypted
-- (AES-256-GCM, server/ai/secrets.ts) and never read back to a client: `api_key_mask`
-- (`sk-…abcd`) is what lists, forms and audit rows show.
ALTER TABLE config_model_server
  ADD COLUMN api_key_enc text NOT NULL DEFAULT '',
  ADD COLUMN api_key_mask varchar(40) NOT NULL DEFAULT '',
  ADD COLUMN max_tokens integer NOT NULL DEFAULT 1024,
  ADD COLUMN supports_vision boolean NOT NULL DEFAULT false,
  ADD COLUMN supports_embeddings boolean NOT NULL DEFAULT false,
  ADD COLUMN embedding_model varchar(100) NOT NULL DEFAULT '',
  ADD COLUMN last_test_ok boolean,
  ADD COLUMN last_test_at timestamptz,
  ADD COLUMN last_test_message varchar(500) NOT NULL DEFAULT '';
ALTER TABLE config_model_server ALTER COLUMN provider SET DEFAULT 'openai-compatible';

-- A strategy answers one shop (or all) on one channel (or all), with a fallback server tried
-- when the first one errs or times out. Existing rows used `scene` for the channel.
ALTER TABLE config_model_strategy
  ADD COLUMN channel varchar(10),
  ADD COLUMN fallback_server_id integer REFERENCES config_model_server (id) ON DELETE SET NULL;
UPDATE config_model_strategy SET channel = scene WHERE scene IN ('chat', 'email');
CREATE INDEX config_model_strategy_fallback_idx ON config_model_strategy (fallback_server_id, id);

ALTER TABLE config_divert ADD COLUMN channel varchar(10);

-- Which model server a prompt, an assistant or a task uses (none: the built-in responder).
ALTER TABLE prompt ADD COLUMN model_server_id integer REFERENCES config_model_server (id) ON DELETE SET NULL;
ALTER TABLE chat_assistant ADD COLUMN model_server_id integer REFERENCES config_model_server (id) ON DELETE SET NULL;
ALTER TABLE text_task ADD COLUMN IF NOT EXISTS model_server_id integer REFERENCES config_model_server (id) ON DELETE SET NULL;
ALTER TABLE text_rating_task ADD COLUMN IF NOT EXISTS model_server_id integer REFERENCES config_model_server (id) ON DELETE SET NULL;

-- One row per model call (each attempt of a chat, each embeddings call, each connection
-- test) and one per fallback reply sent when every model failed.
CREATE TABLE model_call (
  id bigserial PRIMARY KEY,
  model_server_id integer REFERENCES config_model_server (id) ON DELETE SET NULL,
  server_name varchar(100) NOT NULL DEFAULT '',
  model varchar(100) NOT NULL DEFAULT '',
  kind varchar(10) NOT NULL DEFAULT 'chat' CHECK (kind IN ('chat', 'embed', 'test')),
  shop_id integer REFERENCES shop (id) ON DELETE SET NULL,
  channel varchar(10),
  session_key varchar(200) NOT NULL DEFAULT '',
  strategy_id integer REFERENCES config_model_strategy (id) ON DELETE SET NULL,
  divert_id integer REFERENCES config_divert (id) ON DELETE SET NULL,
  attempt smallint NOT NULL DEFAULT 1,
  stream boolean NOT NULL DEFAULT false,
  outcome varchar(10) NOT NULL CHECK (outcome IN ('ok', 'error', 'timeout', 'aborted', 'fallback')),
  error varchar(1000) NOT NULL DEFAULT '',
  latency_ms integer NOT NULL DEFAULT 0,
  prompt_tokens integer NOT NULL DEFAULT 0,
  completion_tokens integer NOT NULL DEFAULT 0,
  total_tokens integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX model_call_created_idx ON model_call (created_at);
CREATE INDEX model_call_server_idx ON model_call (model_server_id, id);
CREATE INDEX model_call_shop_idx ON model_call (shop_id, id);
CREATE INDEX model_call_outcome_idx ON model_call (outcome, id);
