-- The work engine (server/jobs): what people see of a job. The queue mechanics (fetch with
-- SKIP LOCKED, retry with backoff, expiry, cron) live in pg-boss's own schema; this table is
-- the visible record: state, progress, attempts, last error, who started it.
CREATE TABLE work_job (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  title text NOT NULL DEFAULT '',
  ref_type text,
  ref_id bigint,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  data jsonb NOT NULL DEFAULT '{}',
  result jsonb,
  progress_done integer NOT NULL DEFAULT 0,
  progress_total integer NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3,
  last_error text NOT NULL DEFAULT '',
  cancel_requested boolean NOT NULL DEFAULT false,
  boss_id uuid,
  worker_id text,
  created_by integer REFERENCES accounts (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX work_job_state_idx ON work_job (state, id DESC);
CREATE INDEX work_job_kind_idx ON work_job (kind, id DESC);
CREATE INDEX work_job_ref_idx ON work_job (ref_type, ref_id, id DESC);

-- Live worker processes (heartbeat): a running job whose worker stopped beating is retried.
CREATE TABLE work_worker (
  id text PRIMARY KEY,
  host text NOT NULL DEFAULT '',
  pid integer NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL DEFAULT now(),
  seen_at timestamptz NOT NULL DEFAULT now()
);

-- Effects of `system.noop` jobs (tests count them to prove each job ran exactly once).
CREATE TABLE work_job_effect (
  id bigserial PRIMARY KEY,
  marker text NOT NULL,
  job_id bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX work_job_effect_marker_idx ON work_job_effect (marker);
