-- Business tables of spec section 3 (shops, merchants, orders, plans, notifications, learning,
-- assistants, Douyin products). Every declared list filter / sort has an index (docs/business-api.md).

CREATE TABLE merchant_user (
  id           serial PRIMARY KEY,
  name         varchar(100) NOT NULL,
  email        varchar(200) NOT NULL,
  phone        varchar(40),
  country_code char(2) NOT NULL DEFAULT 'US',
  status       smallint NOT NULL DEFAULT 1,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX merchant_user_email_idx ON merchant_user (lower(email));
CREATE INDEX merchant_user_created_idx ON merchant_user (created_at);
CREATE INDEX merchant_user_country_idx ON merchant_user (country_code, id);
CREATE INDEX merchant_user_fts_idx ON merchant_user USING gin (to_tsvector('simple', name || ' ' || email));

CREATE TABLE shop (
  id                   serial PRIMARY KEY,
  name                 varchar(200) NOT NULL,
  type                 smallint NOT NULL,
  user_id              integer REFERENCES merchant_user(id) ON DELETE SET NULL,
  link                 varchar(500) NOT NULL DEFAULT '',
  plugin_status        smallint NOT NULL DEFAULT 0,
  plugin_activated_at  timestamptz,
  is_test              boolean NOT NULL DEFAULT false,
  is_ka                boolean NOT NULL DEFAULT false,
  is_bpo               boolean NOT NULL DEFAULT false,
  active               boolean NOT NULL DEFAULT true,
  country_code         char(2) NOT NULL DEFAULT 'US',
  ai_status            smallint NOT NULL DEFAULT 0,
  authorize_status     smallint NOT NULL DEFAULT 0,
  authorize_expires_at timestamptz,
  creation_source      smallint NOT NULL DEFAULT 0,
  env                  varchar(8) NOT NULL DEFAULT 'prod',
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shop_user_idx ON shop (user_id, id);
CREATE INDEX shop_env_idx ON shop (env, id);
CREATE INDEX shop_type_idx ON shop (type, id);
CREATE INDEX shop_country_idx ON shop (country_code, id);
CREATE INDEX shop_created_idx ON shop (created_at);
CREATE INDEX shop_flags_idx ON shop (is_ka, is_bpo, is_test);
CREATE INDEX shop_status_idx ON shop (ai_status, plugin_status, authorize_status);
CREATE INDEX shop_fts_idx ON shop USING gin (to_tsvector('simple', name || ' ' || link));

CREATE TABLE mail_account (
  id         serial PRIMARY KEY,
  shop_id    integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  email      varchar(200) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_account_shop_idx ON mail_account (shop_id, id);
CREATE INDEX mail_account_email_idx ON mail_account (lower(email));

CREATE TABLE shop_order (
  id                 serial PRIMARY KEY,
  shop_id            integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  name               varchar(40) NOT NULL,
  email              varchar(200) NOT NULL,
  customer_name      varchar(100) NOT NULL DEFAULT '',
  amount             numeric(12,2) NOT NULL,
  currency           char(3) NOT NULL DEFAULT 'USD',
  financial_status   varchar(20) NOT NULL,
  fulfillment_status varchar(20) NOT NULL,
  tracking_company   varchar(60),
  tracking_number    varchar(60),
  created_at         timestamptz NOT NULL,
  raw                jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX shop_order_shop_idx ON shop_order (shop_id, created_at);
CREATE INDEX shop_order_email_idx ON shop_order (lower(email), created_at);
CREATE INDEX shop_order_fin_idx ON shop_order (financial_status, created_at);
CREATE INDEX shop_order_ful_idx ON shop_order (fulfillment_status, created_at);
CREATE INDEX shop_order_created_idx ON shop_order (created_at);
CREATE INDEX shop_order_amount_idx ON shop_order (amount);
CREATE INDEX shop_order_name_idx ON shop_order (name);

CREATE TABLE policy (
  id          serial PRIMARY KEY,
  shop_id     integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  title       varchar(200) NOT NULL,
  content     text NOT NULL,
  source_type smallint NOT NULL,
  channel     varchar(10) NOT NULL DEFAULT 'chat',
  status      smallint NOT NULL DEFAULT 1,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX policy_shop_idx ON policy (shop_id, id);
CREATE INDEX policy_source_idx ON policy (source_type, id);
CREATE INDEX policy_channel_idx ON policy (channel, id);
CREATE INDEX policy_created_idx ON policy (created_at);
CREATE INDEX policy_fts_idx ON policy USING gin (to_tsvector('simple', title));

CREATE TABLE learn_policy (
  id          serial PRIMARY KEY,
  shop_id     integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  question    varchar(500) NOT NULL,
  answer      text NOT NULL,
  channel     varchar(10) NOT NULL DEFAULT 'chat',
  status      smallint NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX learn_policy_shop_idx ON learn_policy (shop_id, id);
CREATE INDEX learn_policy_status_idx ON learn_policy (status, id);
CREATE INDEX learn_policy_created_idx ON learn_policy (created_at);

CREATE TABLE learn_policy_product (
  id            serial PRIMARY KEY,
  shop_id       integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  product_id    varchar(60) NOT NULL,
  product_title varchar(300) NOT NULL,
  content       text NOT NULL,
  status        smallint NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX learn_policy_product_shop_idx ON learn_policy_product (shop_id, id);
CREATE INDEX learn_policy_product_status_idx ON learn_policy_product (status, id);
CREATE INDEX learn_policy_product_created_idx ON learn_policy_product (created_at);

CREATE TABLE notification (
  id              serial PRIMARY KEY,
  title           varchar(200) NOT NULL,
  content         text NOT NULL,
  status          smallint NOT NULL DEFAULT 0,
  jump_link       varchar(500) NOT NULL DEFAULT '',
  target_types    smallint[] NOT NULL,
  push_quantity   integer NOT NULL DEFAULT 0,
  push_read_count integer NOT NULL DEFAULT 0,
  pushed_at       timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_status_idx ON notification (status, id);
CREATE INDEX notification_created_idx ON notification (created_at);

CREATE TABLE notification_delivery (
  notification_id integer NOT NULL REFERENCES notification(id) ON DELETE CASCADE,
  shop_id         integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  delivered_at    timestamptz NOT NULL DEFAULT now(),
  read_at         timestamptz,
  PRIMARY KEY (notification_id, shop_id)
);
CREATE INDEX notification_delivery_shop_idx ON notification_delivery (shop_id);

CREATE TABLE plan (
  id            serial PRIMARY KEY,
  name          varchar(100) NOT NULL,
  product       varchar(10) NOT NULL DEFAULT 'text',
  period        varchar(10) NOT NULL DEFAULT 'month',
  price         numeric(12,2) NOT NULL,
  currency      char(3) NOT NULL DEFAULT 'USD',
  chat_quota    integer NOT NULL DEFAULT 0,
  email_quota   integer NOT NULL DEFAULT 0,
  voice_minutes integer NOT NULL DEFAULT 0,
  status        smallint NOT NULL DEFAULT 1,
  description   varchar(1000) NOT NULL DEFAULT '',
  sort          integer NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX plan_product_idx ON plan (product, sort, id);

CREATE TABLE plan_order (
  id         serial PRIMARY KEY,
  order_no   varchar(40) NOT NULL UNIQUE,
  user_id    integer NOT NULL REFERENCES merchant_user(id),
  shop_id    integer REFERENCES shop(id) ON DELETE SET NULL,
  plan_id    integer NOT NULL REFERENCES plan(id),
  amount     numeric(12,2) NOT NULL,
  currency   char(3) NOT NULL DEFAULT 'USD',
  status     smallint NOT NULL DEFAULT 0,
  start_at   timestamptz NOT NULL,
  end_at     timestamptz NOT NULL,
  remark     varchar(500) NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX plan_order_user_idx ON plan_order (user_id, id);
CREATE INDEX plan_order_shop_idx ON plan_order (shop_id, id);
CREATE INDEX plan_order_plan_idx ON plan_order (plan_id, id);
CREATE INDEX plan_order_status_idx ON plan_order (status, id);
CREATE INDEX plan_order_created_idx ON plan_order (created_at);

CREATE TABLE plan_order_log (
  id            serial PRIMARY KEY,
  plan_order_id integer NOT NULL REFERENCES plan_order(id) ON DELETE CASCADE,
  action        varchar(20) NOT NULL,
  changes       jsonb NOT NULL DEFAULT '{}',
  operator_id   integer,
  operator_name varchar(100) NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX plan_order_log_order_idx ON plan_order_log (plan_order_id, id);

CREATE TABLE learn_material (
  id                 serial PRIMARY KEY,
  shop_id            integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  user_id            integer REFERENCES merchant_user(id) ON DELETE SET NULL,
  channel            varchar(10) NOT NULL DEFAULT 'chat',
  source_type        smallint NOT NULL DEFAULT 3,
  subject            varchar(300) NOT NULL,
  question           text NOT NULL,
  answer             text NOT NULL DEFAULT '',
  status             smallint NOT NULL DEFAULT 0,
  ticket_learn       smallint NOT NULL DEFAULT 0,
  ticket_learn_note  varchar(1000) NOT NULL DEFAULT '',
  remark             varchar(1000) NOT NULL DEFAULT '',
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX learn_material_shop_idx ON learn_material (shop_id, id);
CREATE INDEX learn_material_status_idx ON learn_material (status, id);
CREATE INDEX learn_material_created_idx ON learn_material (created_at);
CREATE INDEX learn_material_fts_idx ON learn_material USING gin (to_tsvector('simple', subject));

CREATE TABLE learn_knowledge (
  id          serial PRIMARY KEY,
  material_id integer REFERENCES learn_material(id) ON DELETE SET NULL,
  shop_id     integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  question    varchar(500) NOT NULL,
  answer      text NOT NULL,
  channel     varchar(10) NOT NULL DEFAULT 'chat',
  policy_id   integer REFERENCES policy(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX learn_knowledge_material_idx ON learn_knowledge (material_id);
CREATE INDEX learn_knowledge_shop_idx ON learn_knowledge (shop_id, id);

CREATE TABLE learn_doc (
  id         serial PRIMARY KEY,
  shop_id    integer REFERENCES shop(id) ON DELETE CASCADE,
  name       varchar(255) NOT NULL,
  file_type  varchar(10) NOT NULL,
  size       integer NOT NULL,
  status     smallint NOT NULL DEFAULT 0,
  content    text NOT NULL DEFAULT '',
  error      varchar(500) NOT NULL DEFAULT '',
  file       bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  learned_at timestamptz
);
CREATE INDEX learn_doc_shop_idx ON learn_doc (shop_id, id);
CREATE INDEX learn_doc_status_idx ON learn_doc (status, id);
CREATE INDEX learn_doc_created_idx ON learn_doc (created_at);

CREATE TABLE product_desc (
  id              serial PRIMARY KEY,
  shop_id         integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  product_id      varchar(60) NOT NULL,
  title           varchar(300) NOT NULL,
  description     text NOT NULL DEFAULT '',
  identified_desc text NOT NULL DEFAULT '',
  status          smallint NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX product_desc_shop_idx ON product_desc (shop_id, id);
CREATE INDEX product_desc_status_idx ON product_desc (status, id);
CREATE INDEX product_desc_fts_idx ON product_desc USING gin (to_tsvector('simple', title));

CREATE TABLE chat_assistant (
  id              serial PRIMARY KEY,
  name            varchar(100) NOT NULL,
  shop_id         integer REFERENCES shop(id) ON DELETE SET NULL,
  model           varchar(60) NOT NULL,
  prompt          text NOT NULL,
  welcome_message varchar(1000) NOT NULL DEFAULT '',
  temperature     numeric(3,2) NOT NULL DEFAULT 0.7,
  channel         varchar(10) NOT NULL DEFAULT 'chat',
  status          smallint NOT NULL DEFAULT 1,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_assistant_shop_idx ON chat_assistant (shop_id, id);
CREATE INDEX chat_assistant_status_idx ON chat_assistant (status, id);

CREATE TABLE douyin_product (
  id         serial PRIMARY KEY,
  shop_id    integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  product_id varchar(60) NOT NULL,
  title      varchar(300) NOT NULL,
  price      numeric(12,2) NOT NULL DEFAULT 0,
  policy     text NOT NULL DEFAULT '',
  remark     varchar(1000) NOT NULL DEFAULT '',
  status     smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (shop_id, product_id)
);
CREATE INDEX douyin_product_status_idx ON douyin_product (status, id);
CREATE INDEX douyin_product_fts_idx ON douyin_product USING gin (to_tsvector('simple', title));
