-- Call campaigns (issue 10, docs/modules/voice.md "Campaigns"): the numbers a call task calls,
-- each with its own progress (attempts, when it is due again, its outcome), the call window's
-- opening time, a concurrency cap, and the lease that lets one campaign job at a time work a
-- task. Every call attempt is a call_log row (unique per number and attempt number), written
-- before the dialer is asked, so a resumed campaign never places an attempt twice.

ALTER TABLE call_task
  ADD COLUMN window_start char(5) NOT NULL DEFAULT '09:00',
  ADD COLUMN concurrency integer NOT NULL DEFAULT 2 CHECK (concurrency BETWEEN 1 AND 50),
  ADD COLUMN callees text NOT NULL DEFAULT '',
  ADD COLUMN lease_until timestamptz,
  ADD COLUMN lease_job bigint,
  ADD COLUMN finished_at timestamptz;

-- one row per number to call: waiting (due at next_at, or now when null) → calling → waiting
-- again (a redial) or done (outcome connected / failed / exhausted / removed)
CREATE TABLE call_target (
  id             serial PRIMARY KEY,
  task_id        integer NOT NULL REFERENCES call_task(id) ON DELETE CASCADE,
  phone          varchar(32) NOT NULL,
  customer_name  varchar(100) NOT NULL DEFAULT '',
  state          varchar(16) NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'calling', 'done')),
  attempts       integer NOT NULL DEFAULT 0,
  next_at        timestamptz,
  result         smallint,
  outcome        varchar(16),
  last_called_at timestamptz,
  UNIQUE (task_id, phone)
);
CREATE INDEX call_target_due_idx ON call_target (task_id, state, next_at);

ALTER TABLE call_log
  ALTER COLUMN result DROP NOT NULL,
  ADD COLUMN target_id integer REFERENCES call_target(id) ON DELETE SET NULL,
  ADD COLUMN attempt integer,
  ADD COLUMN dialer varchar(16) NOT NULL DEFAULT '',
  ADD COLUMN dry_run boolean NOT NULL DEFAULT false,
  ADD COLUMN status varchar(16) NOT NULL DEFAULT 'ended' CHECK (status IN ('dialling', 'ended')),
  ADD COLUMN outcome text NOT NULL DEFAULT '',
  ADD COLUMN request jsonb,
  ADD COLUMN provider_call_id varchar(64),
  ADD COLUMN provider_status varchar(32) NOT NULL DEFAULT '',
  ADD COLUMN ended_at timestamptz;
CREATE UNIQUE INDEX call_log_attempt_uq ON call_log (target_id, attempt);
CREATE INDEX call_log_provider_call_idx ON call_log (provider_call_id);
-- attempts still dialling: counted per task (the concurrency cap), scanned for stale ones
CREATE INDEX call_log_dialling_idx ON call_log (task_id, called_at) WHERE status = 'dialling';
CREATE INDEX call_log_dialer_idx ON call_log (dialer, id);
