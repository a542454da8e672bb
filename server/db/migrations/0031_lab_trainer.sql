-- A trainer for lab experiment tasks (issue 24, docs/modules/lab.md "Runs", docs/integrations.md
-- "Trainer"): a task fine-tunes through the OpenAI-compatible fine-tuning API of a model server
-- marked `supports_fine_tuning` (its endpoint and its encrypted key). The run records each remote
-- step before and after it is taken, so a process killed at any point resumes the same remote
-- job instead of creating a second one.

ALTER TABLE config_model_server ADD COLUMN supports_fine_tuning boolean NOT NULL DEFAULT false;

-- the training examples of a lab dataset, chat format: one {"messages": [{role, content}, …]} each
ALTER TABLE lab_dataset ADD COLUMN examples jsonb NOT NULL DEFAULT '[]'::jsonb;

ALTER TABLE lab_train_task
  -- the model server that trains (none: the first enabled one that supports fine-tuning)
  ADD COLUMN trainer_server_id integer REFERENCES config_model_server (id) ON DELETE SET NULL,
  -- the remote job's status as the trainer last reported it ('none': nothing sent yet)
  ADD COLUMN train_status varchar(20) NOT NULL DEFAULT 'none'
    CHECK (train_status IN ('none', 'uploading', 'validating_files', 'queued', 'running', 'succeeded', 'failed', 'cancelled')),
  -- the server the remote steps were sent to (kept: the task's choice may be cleared later)
  ADD COLUMN remote_server_id integer REFERENCES config_model_server (id) ON DELETE SET NULL,
  -- a random key of this run's remote steps: the uploaded file's name and the job's metadata
  -- carry it, so a step whose reply was lost is found on the trainer instead of taken twice
  ADD COLUMN remote_key varchar(64) NOT NULL DEFAULT '',
  ADD COLUMN upload_started_at timestamptz,
  ADD COLUMN remote_file_id varchar(200) NOT NULL DEFAULT '',
  ADD COLUMN create_started_at timestamptz,
  ADD COLUMN remote_job_id varchar(200) NOT NULL DEFAULT '',
  ADD COLUMN fine_tuned_model varchar(200) NOT NULL DEFAULT '',
  ADD COLUMN trained_tokens bigint,
  -- the last time the trainer answered, and why it did not since (retried, not a failure)
  ADD COLUMN trainer_contact_at timestamptz,
  ADD COLUMN trainer_note varchar(1000) NOT NULL DEFAULT '',
  -- the model server registered from the fine-tuned model ("add as model server")
  ADD COLUMN result_model_server_id integer REFERENCES config_model_server (id) ON DELETE SET NULL;

CREATE INDEX lab_train_task_trainer_idx ON lab_train_task (trainer_server_id, id);

-- the trainer's events of a task's remote job (GET /v1/fine_tuning/jobs/{id}/events), once each
CREATE TABLE lab_train_event (
  id           bigserial PRIMARY KEY,
  task_id      integer NOT NULL REFERENCES lab_train_task (id) ON DELETE CASCADE,
  remote_job_id varchar(200) NOT NULL,
  event_id     varchar(200) NOT NULL,
  level        varchar(10) NOT NULL DEFAULT 'info',
  type         varchar(20) NOT NULL DEFAULT 'message',
  message      varchar(2000) NOT NULL DEFAULT '',
  data         jsonb,
  reported_at  timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (task_id, event_id)
);
CREATE INDEX lab_train_event_task_idx ON lab_train_event (task_id, id);
