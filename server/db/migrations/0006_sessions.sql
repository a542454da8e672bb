-- Sessions (chat / mail / voice), marks, feedback, session categories, the config center,
-- operations tools (image extraction, stored files, policy import log) and prompts.
-- Every declared list filter / sort has an index (docs/modules/sessions.md).

CREATE TABLE chat_session (
  id             serial PRIMARY KEY,
  shop_id        integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  customer_name  varchar(100) NOT NULL DEFAULT '',
  customer_email varchar(200) NOT NULL DEFAULT '',
  channel        varchar(20) NOT NULL DEFAULT 'web',
  country_code   char(2) NOT NULL DEFAULT 'US',
  message_count  integer NOT NULL DEFAULT 0,
  last_message   varchar(500) NOT NULL DEFAULT '',
  started_at     timestamptz NOT NULL DEFAULT now(),
  ended_at       timestamptz
);
CREATE INDEX chat_session_shop_idx ON chat_session (shop_id, id);
CREATE INDEX chat_session_channel_idx ON chat_session (channel, id);
CREATE INDEX chat_session_started_idx ON chat_session (started_at);
CREATE INDEX chat_session_fts_idx ON chat_session USING gin (to_tsvector('simple', customer_name || ' ' || customer_email || ' ' || last_message));

CREATE TABLE chat_message (
  id         serial PRIMARY KEY,
  session_id integer NOT NULL REFERENCES chat_session(id) ON DELETE CASCADE,
  msg_type   smallint NOT NULL,
  sender     varchar(100) NOT NULL DEFAULT '',
  content    text NOT NULL DEFAULT '',
  policy_id  integer,
  sent_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_message_session_idx ON chat_message (session_id, sent_at, id);

CREATE TABLE mail_session (
  id             serial PRIMARY KEY,
  shop_id        integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  subject        varchar(300) NOT NULL DEFAULT '',
  customer_email varchar(200) NOT NULL DEFAULT '',
  mail_count     integer NOT NULL DEFAULT 0,
  started_at     timestamptz NOT NULL DEFAULT now(),
  last_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_session_shop_idx ON mail_session (shop_id, id);
CREATE INDEX mail_session_started_idx ON mail_session (started_at);
CREATE INDEX mail_session_fts_idx ON mail_session USING gin (to_tsvector('simple', subject || ' ' || customer_email));

CREATE TABLE mail_message (
  id             serial PRIMARY KEY,
  session_id     integer NOT NULL REFERENCES mail_session(id) ON DELETE CASCADE,
  direction_type smallint NOT NULL,
  from_addr      varchar(200) NOT NULL DEFAULT '',
  to_addr        varchar(200) NOT NULL DEFAULT '',
  subject        varchar(300) NOT NULL DEFAULT '',
  body           text NOT NULL DEFAULT '',
  is_read        smallint NOT NULL DEFAULT 0,
  is_ai          smallint NOT NULL DEFAULT 0,
  has_attachment smallint NOT NULL DEFAULT 0,
  sent_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_message_session_idx ON mail_message (session_id, sent_at, id);

CREATE TABLE voice_session (
  id            serial PRIMARY KEY,
  shop_id       integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  caller        varchar(40) NOT NULL DEFAULT '',
  callee        varchar(40) NOT NULL DEFAULT '',
  direction     varchar(10) NOT NULL DEFAULT 'inbound',
  duration_sec  integer NOT NULL DEFAULT 0,
  result        smallint NOT NULL DEFAULT 1,
  summary       varchar(500) NOT NULL DEFAULT '',
  started_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX voice_session_shop_idx ON voice_session (shop_id, id);
CREATE INDEX voice_session_direction_idx ON voice_session (direction, id);
CREATE INDEX voice_session_started_idx ON voice_session (started_at);
CREATE INDEX voice_session_fts_idx ON voice_session USING gin (to_tsvector('simple', caller || ' ' || callee || ' ' || summary));

CREATE TABLE voice_utterance (
  id         serial PRIMARY KEY,
  session_id integer NOT NULL REFERENCES voice_session(id) ON DELETE CASCADE,
  speaker    varchar(10) NOT NULL,
  content    text NOT NULL DEFAULT '',
  offset_ms  integer NOT NULL DEFAULT 0
);
CREATE INDEX voice_utterance_session_idx ON voice_utterance (session_id, offset_ms, id);

CREATE TABLE session_mark (
  id          serial PRIMARY KEY,
  session_id  integer NOT NULL REFERENCES chat_session(id) ON DELETE CASCADE,
  message_id  integer,
  mark_type   varchar(50) NOT NULL DEFAULT '',
  is_correct  boolean NOT NULL DEFAULT true,
  question    text NOT NULL DEFAULT '',
  answer      text NOT NULL DEFAULT '',
  remark      varchar(1000) NOT NULL DEFAULT '',
  marked_by   varchar(200) NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_mark_session_idx ON session_mark (session_id, id);
CREATE INDEX session_mark_correct_idx ON session_mark (is_correct, id);
CREATE INDEX session_mark_created_idx ON session_mark (created_at);

CREATE TABLE feedback (
  id            serial PRIMARY KEY,
  message_id    integer,
  session_id    integer,
  policy_id     integer,
  question_type varchar(50) NOT NULL DEFAULT '',
  description   text NOT NULL DEFAULT '',
  scope         varchar(50) NOT NULL DEFAULT '',
  platform      varchar(50) NOT NULL DEFAULT '',
  country_code  varchar(2) NOT NULL DEFAULT '',
  seat          varchar(100) NOT NULL DEFAULT '',
  email         varchar(200) NOT NULL DEFAULT '',
  feedback_at   timestamptz NOT NULL DEFAULT now(),
  status        varchar(30) NOT NULL DEFAULT 'pending',
  handle_status smallint NOT NULL DEFAULT 0,
  handler       varchar(200) NOT NULL DEFAULT '',
  annotation    text NOT NULL DEFAULT '',
  remark        varchar(1000) NOT NULL DEFAULT '',
  image         varchar(500) NOT NULL DEFAULT '',
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_status_idx ON feedback (status, id);
CREATE INDEX feedback_handle_idx ON feedback (handle_status, id);
CREATE INDEX feedback_session_idx ON feedback (session_id, id);
CREATE INDEX feedback_platform_idx ON feedback (platform, id);
CREATE INDEX feedback_at_idx ON feedback (feedback_at);
CREATE INDEX feedback_fts_idx ON feedback USING gin (to_tsvector('simple', description || ' ' || email));

CREATE TABLE session_category_group (
  id         serial PRIMARY KEY,
  shop_id    integer REFERENCES shop(id) ON DELETE CASCADE,
  name       varchar(100) NOT NULL,
  sort       integer NOT NULL DEFAULT 0,
  remark     varchar(500) NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_category_group_shop_idx ON session_category_group (shop_id, id);
CREATE INDEX session_category_group_fts_idx ON session_category_group USING gin (to_tsvector('simple', name));

CREATE TABLE session_category_item (
  id          serial PRIMARY KEY,
  group_id    integer NOT NULL REFERENCES session_category_group(id) ON DELETE CASCADE,
  name        varchar(100) NOT NULL,
  keywords    varchar(500) NOT NULL DEFAULT '',
  description varchar(1000) NOT NULL DEFAULT '',
  sort        integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_category_item_group_idx ON session_category_item (group_id, id);
CREATE INDEX session_category_item_fts_idx ON session_category_item USING gin (to_tsvector('simple', name || ' ' || keywords));

-- config center (intelligent_text.admin.config_center.*)
CREATE TABLE config_model_server (
  id              serial PRIMARY KEY,
  name            varchar(100) NOT NULL,
  provider        varchar(50) NOT NULL,
  endpoint        varchar(500) NOT NULL DEFAULT '',
  model           varchar(100) NOT NULL,
  timeout_ms      integer NOT NULL DEFAULT 30000,
  max_concurrency integer NOT NULL DEFAULT 10,
  enabled         boolean NOT NULL DEFAULT true,
  remark          varchar(500) NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX config_model_server_fts_idx ON config_model_server USING gin (to_tsvector('simple', name || ' ' || model));

CREATE TABLE config_fallback (
  id         serial PRIMARY KEY,
  shop_id    integer REFERENCES shop(id) ON DELETE CASCADE,
  channel    varchar(10) NOT NULL DEFAULT 'chat',
  reply      text NOT NULL,
  enabled    boolean NOT NULL DEFAULT true,
  remark     varchar(500) NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX config_fallback_shop_idx ON config_fallback (shop_id, id);
CREATE INDEX config_fallback_channel_idx ON config_fallback (channel, id);

CREATE TABLE config_model_strategy (
  id              serial PRIMARY KEY,
  name            varchar(100) NOT NULL,
  shop_id         integer REFERENCES shop(id) ON DELETE CASCADE,
  scene           varchar(50) NOT NULL DEFAULT '',
  model_server_id integer NOT NULL REFERENCES config_model_server(id) ON DELETE RESTRICT,
  temperature     numeric(3,2) NOT NULL DEFAULT 0.3,
  max_tokens      integer NOT NULL DEFAULT 1024,
  enabled         boolean NOT NULL DEFAULT true,
  remark          varchar(500) NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX config_model_strategy_shop_idx ON config_model_strategy (shop_id, id);
CREATE INDEX config_model_strategy_server_idx ON config_model_strategy (model_server_id, id);

CREATE TABLE config_auto_learn (
  id             serial PRIMARY KEY,
  name           varchar(100) NOT NULL,
  source_type    smallint NOT NULL,
  min_confidence numeric(3,2) NOT NULL DEFAULT 0.8,
  interval_hours integer NOT NULL DEFAULT 24,
  enabled        boolean NOT NULL DEFAULT true,
  remark         varchar(500) NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX config_auto_learn_source_idx ON config_auto_learn (source_type, id);

CREATE TABLE config_auto_learn_shop (
  id            serial PRIMARY KEY,
  shop_id       integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  learn_policy  boolean NOT NULL DEFAULT true,
  learn_product boolean NOT NULL DEFAULT false,
  enabled       boolean NOT NULL DEFAULT true,
  remark        varchar(500) NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (shop_id)
);

CREATE TABLE config_divert (
  id                serial PRIMARY KEY,
  name              varchar(100) NOT NULL,
  shop_id           integer REFERENCES shop(id) ON DELETE CASCADE,
  model_strategy_id integer NOT NULL REFERENCES config_model_strategy(id) ON DELETE RESTRICT,
  percentage        integer NOT NULL DEFAULT 0,
  enabled           boolean NOT NULL DEFAULT true,
  remark            varchar(500) NOT NULL DEFAULT '',
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX config_divert_shop_idx ON config_divert (shop_id, id);
CREATE INDEX config_divert_strategy_idx ON config_divert (model_strategy_id, id);

-- operations tools
CREATE TABLE image_extraction (
  id             serial PRIMARY KEY,
  shop_id        integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  title          varchar(200) NOT NULL,
  image_url      varchar(500) NOT NULL,
  extracted_text text NOT NULL DEFAULT '',
  extra_info     text NOT NULL DEFAULT '',
  remark         varchar(1000) NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX image_extraction_shop_idx ON image_extraction (shop_id, id);
CREATE INDEX image_extraction_created_idx ON image_extraction (created_at);
CREATE INDEX image_extraction_fts_idx ON image_extraction USING gin (to_tsvector('simple', title));

CREATE TABLE stored_file (
  id           serial PRIMARY KEY,
  name         varchar(255) NOT NULL,
  content_type varchar(100) NOT NULL DEFAULT 'application/octet-stream',
  size         integer NOT NULL,
  data         bytea NOT NULL,
  uploaded_by  varchar(200) NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stored_file_created_idx ON stored_file (created_at);
CREATE INDEX stored_file_fts_idx ON stored_file USING gin (to_tsvector('simple', name));

CREATE TABLE policy_import_log (
  id          serial PRIMARY KEY,
  shop_id     integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  file_name   varchar(255) NOT NULL,
  total       integer NOT NULL DEFAULT 0,
  imported    integer NOT NULL DEFAULT 0,
  failed      integer NOT NULL DEFAULT 0,
  imported_by varchar(200) NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX policy_import_log_shop_idx ON policy_import_log (shop_id, id);
CREATE INDEX policy_import_log_created_idx ON policy_import_log (created_at);

-- prompts (learn/promptManagement, scriptManage/playground)
CREATE TABLE prompt (
  id         serial PRIMARY KEY,
  name       varchar(100) NOT NULL,
  scene      varchar(50) NOT NULL DEFAULT '',
  content    text NOT NULL,
  remark     varchar(500) NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX prompt_created_idx ON prompt (created_at);
CREATE INDEX prompt_fts_idx ON prompt USING gin (to_tsvector('simple', name || ' ' || scene));
