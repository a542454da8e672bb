-- Notification delivery through real channels (issue 24, docs/integrations.md "Notifications").
-- A pushed notice had one notification_delivery row per shop and stopped there. Now each shop
-- may have delivery channels (a signed webhook, an e-mail address); the push writes one
-- notification_send per (delivery, channel) and `notification.deliver` jobs send them, each send
-- a small state machine (pending → sending under a lease → delivered | pending again with a
-- backoff | failed) with one notification_send_attempt row per try (the delivery log).

-- a shop's delivery channels; secrets are AES-256-GCM ciphertext (server/ai/secrets.ts), shown masked
CREATE TABLE notification_channel (
  id           serial PRIMARY KEY,
  shop_id      integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  kind         varchar(10) NOT NULL CHECK (kind IN ('webhook', 'email')),  -- notify_channel_kind
  name         varchar(100) NOT NULL DEFAULT '',
  enabled      boolean NOT NULL DEFAULT true,
  url          varchar(500) NOT NULL DEFAULT '',
  secret_enc   text NOT NULL DEFAULT '',
  secret_mask  varchar(40) NOT NULL DEFAULT '',
  email_to     varchar(200) NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_channel_shop_idx ON notification_channel (shop_id, id);

-- the console's outgoing mail server for notices (one row, id 1); the password is ciphertext
CREATE TABLE notification_smtp (
  id            smallint PRIMARY KEY CHECK (id = 1),
  host          varchar(200) NOT NULL DEFAULT '',
  port          integer NOT NULL DEFAULT 587 CHECK (port BETWEEN 1 AND 65535),
  secure        boolean NOT NULL DEFAULT false,
  username      varchar(200) NOT NULL DEFAULT '',
  password_enc  text NOT NULL DEFAULT '',
  password_mask varchar(40) NOT NULL DEFAULT '',
  from_address  varchar(200) NOT NULL DEFAULT '',
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE notification_send (
  id              bigserial PRIMARY KEY,
  notification_id integer NOT NULL REFERENCES notification(id) ON DELETE CASCADE,
  shop_id         integer NOT NULL REFERENCES shop(id) ON DELETE CASCADE,
  channel         varchar(10) NOT NULL CHECK (channel IN ('webhook', 'email', 'sandbox')),  -- notify_channel_kind
  channel_id      integer REFERENCES notification_channel(id) ON DELETE SET NULL,
  -- 'webhook:12', 'email:13', 'sandbox': one send per channel of a delivery, also across re-pushes
  channel_key     varchar(30) NOT NULL,
  target          varchar(500) NOT NULL DEFAULT '',
  state           varchar(10) NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'delivered', 'failed')),  -- notify_send_state
  attempts        integer NOT NULL DEFAULT 0,
  max_attempts    integer NOT NULL DEFAULT 6,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_owner     varchar(120),
  lease_until     timestamptz,
  -- the webhook-id / Idempotency-Key header and the e-mail's Message-ID: the same on every attempt
  idempotency_key varchar(64) NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', ''),
  last_status     integer,
  last_error      varchar(500) NOT NULL DEFAULT '',
  delivered_at    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (notification_id, shop_id) REFERENCES notification_delivery (notification_id, shop_id) ON DELETE CASCADE,
  UNIQUE (notification_id, shop_id, channel_key)
);
CREATE INDEX notification_send_due_idx ON notification_send (notification_id, state, next_attempt_at);
CREATE INDEX notification_send_active_idx ON notification_send (next_attempt_at) WHERE state IN ('pending', 'sending');
CREATE INDEX notification_send_shop_idx ON notification_send (shop_id);

-- the delivery log: one row per attempt ('sending' while it runs; 'lost' when its worker died)
CREATE TABLE notification_send_attempt (
  id          bigserial PRIMARY KEY,
  send_id     bigint NOT NULL REFERENCES notification_send(id) ON DELETE CASCADE,
  attempt     integer NOT NULL,
  outcome     varchar(10) NOT NULL DEFAULT 'sending' CHECK (outcome IN ('sending', 'ok', 'error', 'lost')),
  status_code integer,
  error       varchar(500) NOT NULL DEFAULT '',
  worker      varchar(120) NOT NULL DEFAULT '',
  started_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  duration_ms integer,
  UNIQUE (send_id, attempt)
);

-- what the built-in sandbox receiver got (demo data: shops without a channel of their own)
CREATE TABLE notification_sandbox_inbox (
  id          bigserial PRIMARY KEY,
  send_id     bigint NOT NULL REFERENCES notification_send(id) ON DELETE CASCADE,
  webhook_id  varchar(64) NOT NULL UNIQUE,
  received    integer NOT NULL DEFAULT 1,
  payload     jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
