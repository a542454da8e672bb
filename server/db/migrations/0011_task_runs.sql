-- Scored runs (issues 10 and 13, docs/modules/lab.md "Runs"): test and rating tasks run as jobs
-- of the work engine, question by question. Each answer is a result row (unique per task and
-- sample, so a resumed run never answers a question twice) with every score of the scoring
-- cascade (scorer, score, pass, reason), the responder, model, tokens and the knowledge cited.
-- The task names its model server (the old free `model` name stays readable for old rows), an
-- optional judge model server, a shop whose knowledge answers, and its pass mark; `run_job_id`
-- is the lease: the work job that runs the task now (one at a time).

ALTER TABLE text_task
  ADD COLUMN IF NOT EXISTS model_server_id integer REFERENCES config_model_server(id) ON DELETE SET NULL,
  ADD COLUMN judge_model_server_id integer REFERENCES config_model_server(id) ON DELETE SET NULL,
  ADD COLUMN shop_id integer REFERENCES shop(id) ON DELETE SET NULL,
  ADD COLUMN pass_threshold numeric(4,3) NOT NULL DEFAULT 0.5 CHECK (pass_threshold >= 0 AND pass_threshold <= 1),
  ADD COLUMN passed integer NOT NULL DEFAULT 0,
  ADD COLUMN judge_tokens integer NOT NULL DEFAULT 0,
  ADD COLUMN run_job_id bigint,
  ADD COLUMN run_error text NOT NULL DEFAULT '';
ALTER TABLE text_task ALTER COLUMN model SET DEFAULT '';

ALTER TABLE text_rating_task
  ADD COLUMN IF NOT EXISTS model_server_id integer REFERENCES config_model_server(id) ON DELETE SET NULL,
  ADD COLUMN judge_model_server_id integer REFERENCES config_model_server(id) ON DELETE SET NULL,
  ADD COLUMN shop_id integer REFERENCES shop(id) ON DELETE SET NULL,
  ADD COLUMN pass_threshold numeric(4,3) NOT NULL DEFAULT 0.5 CHECK (pass_threshold >= 0 AND pass_threshold <= 1),
  ADD COLUMN passed integer NOT NULL DEFAULT 0,
  ADD COLUMN judge_tokens integer NOT NULL DEFAULT 0,
  ADD COLUMN run_job_id bigint,
  ADD COLUMN run_error text NOT NULL DEFAULT '';
ALTER TABLE text_rating_task ALTER COLUMN model SET DEFAULT '';

-- scheduled starts: the ticker looks for pending scheduled tasks that are due
CREATE INDEX text_task_due_idx ON text_task (scheduled_at) WHERE status = 'pending' AND mode = 'schedule';
CREATE INDEX text_rating_task_due_idx ON text_rating_task (scheduled_at) WHERE status = 'pending' AND mode = 'schedule';

ALTER TABLE text_task_result
  ADD COLUMN scores jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN responder varchar(20) NOT NULL DEFAULT '',
  ADD COLUMN model varchar(100) NOT NULL DEFAULT '',
  ADD COLUMN citations jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN tokens_prompt integer,
  ADD COLUMN tokens_completion integer,
  ADD COLUMN judge_tokens integer NOT NULL DEFAULT 0,
  ADD COLUMN error text NOT NULL DEFAULT '';

ALTER TABLE text_rating_task_result
  ADD COLUMN scores jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN responder varchar(20) NOT NULL DEFAULT '',
  ADD COLUMN model varchar(100) NOT NULL DEFAULT '',
  ADD COLUMN citations jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN tokens_prompt integer,
  ADD COLUMN tokens_completion integer,
  ADD COLUMN judge_tokens integer NOT NULL DEFAULT 0,
  ADD COLUMN error text NOT NULL DEFAULT '';

-- every row written before runs were real came from the simulated runner: say so
UPDATE text_task_result SET responder = 'simulated';
UPDATE text_rating_task_result SET responder = 'simulated';
UPDATE text_task t SET passed = (SELECT count(*) FROM text_task_result r WHERE r.task_id = t.id AND r.passed);
UPDATE text_rating_task t SET passed = (SELECT count(*) FROM text_rating_task_result r WHERE r.task_id = t.id AND r.passed);

-- lab experiment (training) tasks run as jobs too
ALTER TABLE lab_train_task
  ADD COLUMN run_job_id bigint,
  ADD COLUMN run_error text NOT NULL DEFAULT '';
CREATE INDEX lab_train_task_due_idx ON lab_train_task (scheduled_at) WHERE status = 'pending' AND mode = 'schedule';
