-- Experiment lab (panda_descendant) and script management / data center (intelligent_text):
-- test and rating datasets, test and rating tasks with per-sample results, exit codes, lab
-- training tasks and datasets, AI conversations and comments, lab roles and users.
-- Design notes: docs/modules/lab.md. Task status values: schemas/enums/task_status.json.

CREATE TABLE text_exit_code (
  id                   serial PRIMARY KEY,
  code                 varchar(60) NOT NULL UNIQUE,
  description          varchar(500) NOT NULL DEFAULT '',
  need_semantics_score smallint NOT NULL DEFAULT 0 CHECK (need_semantics_score IN (0, 1)),
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX text_exit_code_score_idx ON text_exit_code (need_semantics_score, id);
CREATE INDEX text_exit_code_created_idx ON text_exit_code (created_at);

-- test datasets and rating datasets: same shape, samples kept as a JSON array [{input, expected}]
CREATE TABLE text_dataset (
  id           serial PRIMARY KEY,
  name         varchar(100) NOT NULL,
  description  varchar(1000) NOT NULL DEFAULT '',
  samples      jsonb NOT NULL DEFAULT '[]'::jsonb,
  sample_count integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX text_dataset_created_idx ON text_dataset (created_at);
CREATE INDEX text_dataset_fts_idx ON text_dataset USING gin (to_tsvector('simple', name));

CREATE TABLE text_rating_dataset (LIKE text_dataset INCLUDING ALL);

-- test tasks and rating tasks: a dataset run against a chat assistant or a prompt
CREATE TABLE text_task (
  id            serial PRIMARY KEY,
  name          varchar(100) NOT NULL,
  dataset_id    integer NOT NULL REFERENCES text_dataset(id),
  assistant_id  integer REFERENCES chat_assistant(id) ON DELETE SET NULL,
  prompt        text NOT NULL DEFAULT '',
  model         varchar(60) NOT NULL DEFAULT 'gpt-4o-mini',
  mode          varchar(10) NOT NULL DEFAULT 'manual',
  scheduled_at  timestamptz,
  status        varchar(10) NOT NULL DEFAULT 'pending',
  total         integer NOT NULL DEFAULT 0,
  done          integer NOT NULL DEFAULT 0,
  avg_score     numeric(5,2),
  remark        varchar(1000) NOT NULL DEFAULT '',
  started_at    timestamptz,
  finished_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX text_task_status_idx ON text_task (status, id);
CREATE INDEX text_task_dataset_idx ON text_task (dataset_id, id);
CREATE INDEX text_task_created_idx ON text_task (created_at);
CREATE INDEX text_task_fts_idx ON text_task USING gin (to_tsvector('simple', name));

CREATE TABLE text_rating_task (LIKE text_task INCLUDING ALL);
ALTER TABLE text_rating_task ADD FOREIGN KEY (dataset_id) REFERENCES text_rating_dataset(id);
ALTER TABLE text_rating_task ADD FOREIGN KEY (assistant_id) REFERENCES chat_assistant(id) ON DELETE SET NULL;

-- one row per sample of a task run
CREATE TABLE text_task_result (
  id           serial PRIMARY KEY,
  task_id      integer NOT NULL REFERENCES text_task(id) ON DELETE CASCADE,
  sample_index integer NOT NULL,
  input        text NOT NULL,
  expected     text NOT NULL DEFAULT '',
  output       text NOT NULL DEFAULT '',
  exit_code    varchar(60),
  score        numeric(5,2),
  passed       boolean NOT NULL DEFAULT false,
  latency_ms   integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (task_id, sample_index)
);

CREATE TABLE text_rating_task_result (LIKE text_task_result INCLUDING ALL);
ALTER TABLE text_rating_task_result ADD FOREIGN KEY (task_id) REFERENCES text_rating_task(id) ON DELETE CASCADE;

-- lab: datasets and training (experiment) tasks
CREATE TABLE lab_dataset (
  id           serial PRIMARY KEY,
  name         varchar(100) NOT NULL,
  data_type    varchar(20) NOT NULL DEFAULT 'dialogue',
  description  varchar(1000) NOT NULL DEFAULT '',
  source_url   varchar(500) NOT NULL DEFAULT '',
  sample_count integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lab_dataset_type_idx ON lab_dataset (data_type, id);
CREATE INDEX lab_dataset_created_idx ON lab_dataset (created_at);
CREATE INDEX lab_dataset_fts_idx ON lab_dataset USING gin (to_tsvector('simple', name));

CREATE TABLE lab_train_task (
  id            serial PRIMARY KEY,
  name          varchar(100) NOT NULL,
  dataset_id    integer NOT NULL REFERENCES lab_dataset(id),
  base_model    varchar(60) NOT NULL,
  epochs        integer NOT NULL DEFAULT 3,
  learning_rate numeric(10,8) NOT NULL DEFAULT 0.0001,
  mode          varchar(10) NOT NULL DEFAULT 'manual',
  scheduled_at  timestamptz,
  status        varchar(10) NOT NULL DEFAULT 'pending',
  progress      integer NOT NULL DEFAULT 0,
  remark        varchar(1000) NOT NULL DEFAULT '',
  started_at    timestamptz,
  finished_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lab_train_task_status_idx ON lab_train_task (status, id);
CREATE INDEX lab_train_task_dataset_idx ON lab_train_task (dataset_id, id);
CREATE INDEX lab_train_task_created_idx ON lab_train_task (created_at);
CREATE INDEX lab_train_task_fts_idx ON lab_train_task USING gin (to_tsvector('simple', name));

-- lab: AI conversations (messages [{role, content}]) and comments on them
CREATE TABLE lab_conversation (
  id         serial PRIMARY KEY,
  title      varchar(200) NOT NULL,
  scene      varchar(20) NOT NULL DEFAULT 'presale',
  model      varchar(60) NOT NULL DEFAULT 'gpt-4o-mini',
  messages   jsonb NOT NULL DEFAULT '[]'::jsonb,
  status     smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lab_conversation_scene_idx ON lab_conversation (scene, id);
CREATE INDEX lab_conversation_status_idx ON lab_conversation (status, id);
CREATE INDEX lab_conversation_created_idx ON lab_conversation (created_at);
CREATE INDEX lab_conversation_fts_idx ON lab_conversation USING gin (to_tsvector('simple', title));

CREATE TABLE lab_comment (
  id              serial PRIMARY KEY,
  conversation_id integer NOT NULL REFERENCES lab_conversation(id) ON DELETE CASCADE,
  author          varchar(100) NOT NULL,
  content         varchar(2000) NOT NULL,
  rating          smallint NOT NULL DEFAULT 3 CHECK (rating BETWEEN 1 AND 5),
  status          smallint NOT NULL DEFAULT 1,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lab_comment_conversation_idx ON lab_comment (conversation_id, id);
CREATE INDEX lab_comment_status_idx ON lab_comment (status, id);
CREATE INDEX lab_comment_created_idx ON lab_comment (created_at);
CREATE INDEX lab_comment_fts_idx ON lab_comment USING gin (to_tsvector('simple', author || ' ' || content));

-- lab-side accounts: the lab application's own roles and users (not console accounts)
CREATE TABLE lab_role (
  id          serial PRIMARY KEY,
  name        varchar(60) NOT NULL UNIQUE,
  description varchar(500) NOT NULL DEFAULT '',
  scopes      varchar(20)[] NOT NULL DEFAULT '{}',
  status      smallint NOT NULL DEFAULT 1,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE lab_user (
  id         serial PRIMARY KEY,
  name       varchar(100) NOT NULL,
  email      varchar(200) NOT NULL,
  role_id    integer REFERENCES lab_role(id) ON DELETE SET NULL,
  status     smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX lab_user_email_idx ON lab_user (lower(email));
CREATE INDEX lab_user_role_idx ON lab_user (role_id, id);
CREATE INDEX lab_user_status_idx ON lab_user (status, id);
CREATE INDEX lab_user_fts_idx ON lab_user USING gin (to_tsvector('simple', name || ' ' || email));
