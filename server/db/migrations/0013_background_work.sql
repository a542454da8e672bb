-- Background work of issue 10 / the learning loop of issue 13 (docs/modules/background.md):
-- product descriptions identified by a job, auto-learn schedules and their candidates,
-- notification push fan-out, and large learn-material exports written by a job.

-- 重新识别: how a description was identified (built-in rules or a model), its attributes,
-- the reason of a failure, and the job doing it
ALTER TABLE product_desc
  ADD COLUMN attributes      jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN identify_method varchar(10) NOT NULL DEFAULT '',
  ADD COLUMN identify_error  varchar(1000) NOT NULL DEFAULT '',
  ADD COLUMN identify_job_id bigint,
  ADD COLUMN identified_at   timestamptz;

-- configCenter/autoLearn: when a rule runs (every N hours, daily at a time in a time zone, or a
-- cron expression in a time zone). `next_run_at` is the claim: the ticker moves it forward with
-- `UPDATE ... WHERE next_run_at = <due>`, so a due time fires once across instances.
-- `mined_*_id`: what the rule has mined so far ("since the last run").
ALTER TABLE config_auto_learn
  ADD COLUMN schedule_type varchar(10) NOT NULL DEFAULT 'interval' CHECK (schedule_type IN ('interval', 'daily', 'cron')),
  ADD COLUMN run_time      char(5) NOT NULL DEFAULT '03:00',
  ADD COLUMN time_zone     varchar(64) NOT NULL DEFAULT 'Asia/Shanghai',
  ADD COLUMN cron          varchar(100) NOT NULL DEFAULT '',
  ADD COLUMN next_run_at   timestamptz,
  ADD COLUMN last_run_at   timestamptz,
  ADD COLUMN last_job_id   bigint,
  ADD COLUMN mined_chat_id integer NOT NULL DEFAULT 0,
  ADD COLUMN mined_mail_id integer NOT NULL DEFAULT 0;
CREATE INDEX config_auto_learn_due_idx ON config_auto_learn (next_run_at) WHERE enabled;

-- auto-learn candidates (learn/autoLearnPolicy): where each came from (a unique key per mined
-- reply, so a resumed or repeated run never adds one twice), its confidence, and the review
ALTER TABLE learn_policy
  ADD COLUMN source        varchar(10) NOT NULL DEFAULT '',
  ADD COLUMN source_key    varchar(80),
  ADD COLUMN session_id    integer,
  ADD COLUMN rule_id       integer REFERENCES config_auto_learn(id) ON DELETE SET NULL,
  ADD COLUMN confidence    numeric(3,2),
  ADD COLUMN fingerprint   varchar(32) NOT NULL DEFAULT '',
  ADD COLUMN reject_reason varchar(500) NOT NULL DEFAULT '',
  ADD COLUMN policy_id     integer REFERENCES policy(id) ON DELETE SET NULL,
  ADD COLUMN reviewed_at   timestamptz,
  ADD COLUMN reviewed_by   integer REFERENCES accounts(id) ON DELETE SET NULL;
CREATE UNIQUE INDEX learn_policy_source_key_idx ON learn_policy (source_key);
CREATE INDEX learn_policy_fingerprint_idx ON learn_policy (shop_id, fingerprint);

ALTER TABLE learn_policy_product
  ADD COLUMN source_key varchar(80),
  ADD COLUMN rule_id    integer REFERENCES config_auto_learn(id) ON DELETE SET NULL;
CREATE UNIQUE INDEX learn_policy_product_source_key_idx ON learn_policy_product (source_key);

-- notification push: the job writing the deliveries; each delivery has a read token (the
-- merchant side marks it read with it, POST /api/common/merchant/notification/read)
ALTER TABLE notification ADD COLUMN push_job_id bigint;
-- (a 256-bit random value: two v4 UUIDs; gen_random_uuid is core PostgreSQL 13+ and in PGlite)
ALTER TABLE notification_delivery
  ADD COLUMN read_token varchar(64) NOT NULL DEFAULT (replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''));
CREATE UNIQUE INDEX notification_delivery_token_idx ON notification_delivery (read_token);

-- large learn-material exports, written by a job: the file lives in the database in chunks
-- (any instance can serve it; PGlite and PostgreSQL alike) until it expires
CREATE TABLE learn_export (
  id           serial PRIMARY KEY,
  format       varchar(4) NOT NULL CHECK (format IN ('csv', 'xlsx')),
  filters      jsonb NOT NULL DEFAULT '{}',
  lang         varchar(5) NOT NULL DEFAULT '',
  file_name    varchar(200) NOT NULL,
  rows_total   integer NOT NULL DEFAULT 0,
  rows_written integer NOT NULL DEFAULT 0,
  size         bigint NOT NULL DEFAULT 0,
  status       varchar(10) NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed', 'expired')),
  error        varchar(1000) NOT NULL DEFAULT '',
  job_id       bigint,
  created_by   integer REFERENCES accounts(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz,
  expires_at   timestamptz
);
CREATE INDEX learn_export_created_by_idx ON learn_export (created_by, id);
CREATE INDEX learn_export_expires_idx ON learn_export (expires_at) WHERE status = 'done';

CREATE TABLE learn_export_chunk (
  export_id integer NOT NULL REFERENCES learn_export(id) ON DELETE CASCADE,
  seq       integer NOT NULL,
  -- the last material id in this chunk (CSV resumes after it)
  last_id   integer NOT NULL DEFAULT 0,
  rows      integer NOT NULL DEFAULT 0,
  data      bytea NOT NULL,
  PRIMARY KEY (export_id, seq)
);
