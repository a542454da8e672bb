-- Answers that can be trusted (issue 21, docs/ai.md "Traces", "Cost" and docs/modules/lab.md "Runs").

-- Cost: a price per million input (prompt) and output (completion) tokens on each model server;
-- every model call keeps what it cost (0 when the server has no price).
ALTER TABLE config_model_server
  ADD COLUMN price_input numeric(12,4) NOT NULL DEFAULT 0 CHECK (price_input >= 0),
  ADD COLUMN price_output numeric(12,4) NOT NULL DEFAULT 0 CHECK (price_output >= 0);
ALTER TABLE model_call ADD COLUMN cost numeric(14,6) NOT NULL DEFAULT 0;

-- An assistant may answer through the model strategy of its shop and channel (traffic split and
-- fallback server) instead of one server, and its sampling settings are sent to the model.
ALTER TABLE chat_assistant
  ADD COLUMN use_strategy boolean NOT NULL DEFAULT false,
  ADD COLUMN top_p numeric(3,2) CHECK (top_p > 0 AND top_p <= 1),
  ADD COLUMN max_tokens integer CHECK (max_tokens > 0 AND max_tokens <= 200000);

-- One trace per answer (the playground, a scored run's question, a chat reply): the question, the
-- knowledge retrieved with its scores, the prompt sent, the completion, every attempt of the
-- gateway, tokens, latency, cost and (in a run) the scorer's decision. Kept `retention days`
-- (app_setting 'ai.trace_retention_days', default 30) and swept by the `ai.trace-sweep` ticker.
CREATE TABLE ai_trace (
  id            bigserial PRIMARY KEY,
  kind          varchar(12) NOT NULL CHECK (kind IN ('playground', 'run', 'chat')),
  ref_type      varchar(40) NOT NULL DEFAULT '',
  ref_id        bigint,
  shop_id       integer REFERENCES shop (id) ON DELETE SET NULL,
  channel       varchar(10),
  assistant_id  integer REFERENCES chat_assistant (id) ON DELETE SET NULL,
  question      text NOT NULL DEFAULT '',
  responder     varchar(20) NOT NULL DEFAULT '',
  outcome       varchar(10) NOT NULL DEFAULT 'ok' CHECK (outcome IN ('ok', 'error', 'fallback', 'builtin')),
  error         text NOT NULL DEFAULT '',
  server_id     integer REFERENCES config_model_server (id) ON DELETE SET NULL,
  server_name   varchar(100) NOT NULL DEFAULT '',
  model         varchar(100) NOT NULL DEFAULT '',
  strategy_id   integer REFERENCES config_model_strategy (id) ON DELETE SET NULL,
  divert_id     integer REFERENCES config_divert (id) ON DELETE SET NULL,
  sampling      jsonb NOT NULL DEFAULT '{}'::jsonb,
  retrieval     jsonb NOT NULL DEFAULT '{}'::jsonb,
  prompt        jsonb NOT NULL DEFAULT '[]'::jsonb,
  completion    text NOT NULL DEFAULT '',
  attempts      jsonb NOT NULL DEFAULT '[]'::jsonb,
  score         jsonb,
  tokens_prompt     integer NOT NULL DEFAULT 0,
  tokens_completion integer NOT NULL DEFAULT 0,
  retrieval_ms  integer NOT NULL DEFAULT 0,
  latency_ms    integer NOT NULL DEFAULT 0,
  cost          numeric(14,6) NOT NULL DEFAULT 0,
  created_by    integer,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ai_trace_created_idx ON ai_trace (created_at);
CREATE INDEX ai_trace_ref_idx ON ai_trace (ref_type, ref_id);

-- A run's question is an outcome of its own: pass, fail (scored and below the mark) or error (the
-- model failed, timed out or a fallback reply stood in: never scored). Each result names the
-- server that answered, what it cost, the deciding scorer's reason and its trace.
ALTER TABLE text_task_result
  ADD COLUMN outcome varchar(10) NOT NULL DEFAULT 'fail' CHECK (outcome IN ('pass', 'fail', 'error')),
  ADD COLUMN server_name varchar(100) NOT NULL DEFAULT '',
  ADD COLUMN cost numeric(14,6) NOT NULL DEFAULT 0,
  ADD COLUMN decision text NOT NULL DEFAULT '',
  ADD COLUMN trace_id bigint;
ALTER TABLE text_rating_task_result
  ADD COLUMN outcome varchar(10) NOT NULL DEFAULT 'fail' CHECK (outcome IN ('pass', 'fail', 'error')),
  ADD COLUMN server_name varchar(100) NOT NULL DEFAULT '',
  ADD COLUMN cost numeric(14,6) NOT NULL DEFAULT 0,
  ADD COLUMN decision text NOT NULL DEFAULT '',
  ADD COLUMN trace_id bigint;
UPDATE text_task_result SET outcome = CASE WHEN passed THEN 'pass'
  WHEN error LIKE 'the model call failed%' OR (error <> '' AND responder = '') THEN 'error' ELSE 'fail' END;
UPDATE text_rating_task_result SET outcome = CASE WHEN passed THEN 'pass'
  WHEN error LIKE 'the model call failed%' OR (error <> '' AND responder = '') THEN 'error' ELSE 'fail' END;

ALTER TABLE text_task ADD COLUMN errors integer NOT NULL DEFAULT 0, ADD COLUMN cost numeric(14,6) NOT NULL DEFAULT 0;
ALTER TABLE text_rating_task ADD COLUMN errors integer NOT NULL DEFAULT 0, ADD COLUMN cost numeric(14,6) NOT NULL DEFAULT 0;
UPDATE text_task t SET errors = (SELECT count(*) FROM text_task_result r WHERE r.task_id = t.id AND r.outcome = 'error');
UPDATE text_rating_task t SET errors = (SELECT count(*) FROM text_rating_task_result r WHERE r.task_id = t.id AND r.outcome = 'error');

-- a chat reply opens its trace
ALTER TABLE chat_message ADD COLUMN trace_id bigint;

-- Prompt versions: every saved prompt (any writer: a form, the seed, SQL) is a version, numbered per
-- prompt, with its author (stamped by the API that saved it) and time. A test or rating task may pin
-- a version (prompt_version_id): its runs use that version's text even after the prompt is edited,
-- and a pinned version cannot be deleted (a prompt's deletion leaves its versions, prompt_id null).
CREATE TABLE prompt_version (
  id              serial PRIMARY KEY,
  prompt_id       integer REFERENCES prompt (id) ON DELETE SET NULL,
  version         integer NOT NULL,
  name            varchar(100) NOT NULL DEFAULT '',
  content         text NOT NULL,
  model_server_id integer REFERENCES config_model_server (id) ON DELETE SET NULL,
  author_id       integer,
  author          varchar(200) NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (prompt_id, version)
);
INSERT INTO prompt_version (prompt_id, version, name, content, model_server_id, created_at)
  SELECT id, 1, name, content, model_server_id, updated_at FROM prompt;

CREATE FUNCTION prompt_version_save() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.content IS NOT DISTINCT FROM OLD.content AND NEW.name IS NOT DISTINCT FROM OLD.name
     AND NEW.model_server_id IS NOT DISTINCT FROM OLD.model_server_id THEN
    RETURN NEW;
  END IF;
  INSERT INTO prompt_version (prompt_id, version, name, content, model_server_id)
    VALUES (NEW.id, COALESCE((SELECT max(version) FROM prompt_version WHERE prompt_id = NEW.id), 0) + 1, NEW.name, NEW.content, NEW.model_server_id);
  RETURN NEW;
END $$;
CREATE TRIGGER prompt_version_save AFTER INSERT OR UPDATE ON prompt FOR EACH ROW EXECUTE FUNCTION prompt_version_save();

ALTER TABLE text_task ADD COLUMN prompt_version_id integer REFERENCES prompt_version (id) ON DELETE RESTRICT;
ALTER TABLE text_rating_task ADD COLUMN prompt_version_id integer REFERENCES prompt_version (id) ON DELETE RESTRICT;
