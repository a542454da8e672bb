-- intelligent_voice call center (spec sections 2, 3 "Voice assistant scene" / "Voice", 4, 5):
-- voices, scenes, numbers, call tasks, call logs, and the one-row IVR and fallback configs.
-- Every declared list filter / sort has an index (docs/modules/voice.md).

CREATE TABLE voice_sound (
  id         serial PRIMARY KEY,
  provider   varchar(32) NOT NULL,
  name       varchar(100) NOT NULL,
  audio_url  varchar(500) NOT NULL DEFAULT '',
  identifier varchar(120) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, identifier)
);
CREATE INDEX voice_sound_created_idx ON voice_sound (created_at);
CREATE INDEX voice_sound_fts_idx ON voice_sound USING gin (to_tsvector('simple', name || ' ' || identifier));

CREATE TABLE voice_scene (
  id                      serial PRIMARY KEY,
  name                    varchar(100) NOT NULL,
  prologue                text NOT NULL DEFAULT '',
  prompt                  text NOT NULL DEFAULT '',
  silent_seconds          integer NOT NULL DEFAULT 5,
  silent_times            integer NOT NULL DEFAULT 2,
  redial_times            integer NOT NULL DEFAULT 1,
  redial_interval_minutes integer NOT NULL DEFAULT 30,
  time_zone               varchar(64) NOT NULL DEFAULT 'Asia/Shanghai',
  voice_provider          varchar(32) NOT NULL,
  sound_id                integer REFERENCES voice_sound(id) ON DELETE RESTRICT,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX voice_scene_provider_idx ON voice_scene (voice_provider, id);
CREATE INDEX voice_scene_sound_idx ON voice_scene (sound_id);
CREATE INDEX voice_scene_created_idx ON voice_scene (created_at);
CREATE INDEX voice_scene_fts_idx ON voice_scene USING gin (to_tsvector('simple', name));

CREATE TABLE call_number (
  id           serial PRIMARY KEY,
  phone        varchar(32) NOT NULL UNIQUE,
  provider     varchar(32) NOT NULL,
  country_code char(2) NOT NULL DEFAULT 'US',
  status       smallint NOT NULL DEFAULT 1,
  scene_id     integer REFERENCES voice_scene(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX call_number_scene_idx ON call_number (scene_id, id);
CREATE INDEX call_number_status_idx ON call_number (status, id);
CREATE INDEX call_number_country_idx ON call_number (country_code, id);
CREATE INDEX call_number_provider_idx ON call_number (provider, id);
CREATE INDEX call_number_created_idx ON call_number (created_at);

CREATE TABLE call_task (
  id               serial PRIMARY KEY,
  name             varchar(100) NOT NULL,
  scene_id         integer NOT NULL REFERENCES voice_scene(id) ON DELETE RESTRICT,
  number_ids       integer[] NOT NULL DEFAULT '{}',
  mode             varchar(16) NOT NULL DEFAULT 'manual',
  status           varchar(16) NOT NULL DEFAULT 'pending',
  start_at         timestamptz,
  latest_call_time char(5) NOT NULL DEFAULT '20:00',
  pause_reason     varchar(16),
  resume_at        timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX call_task_scene_idx ON call_task (scene_id, id);
CREATE INDEX call_task_status_idx ON call_task (status, id);
CREATE INDEX call_task_mode_idx ON call_task (mode, id);
CREATE INDEX call_task_start_idx ON call_task (start_at);
CREATE INDEX call_task_created_idx ON call_task (created_at);
CREATE INDEX call_task_fts_idx ON call_task USING gin (to_tsvector('simple', name));

CREATE TABLE call_log (
  id               serial PRIMARY KEY,
  task_id          integer REFERENCES call_task(id) ON DELETE SET NULL,
  caller_number    varchar(32) NOT NULL DEFAULT '',
  callee_number    varchar(32) NOT NULL,
  customer_name    varchar(100) NOT NULL DEFAULT '',
  duration_seconds integer NOT NULL DEFAULT 0,
  result           smallint NOT NULL,
  recording_url    varchar(500) NOT NULL DEFAULT '',
  transcript       jsonb NOT NULL DEFAULT '[]',
  called_at        timestamptz NOT NULL DEFAULT now(),
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX call_log_task_idx ON call_log (task_id, id);
CREATE INDEX call_log_result_idx ON call_log (result, id);
CREATE INDEX call_log_callee_idx ON call_log (callee_number, id);
CREATE INDEX call_log_called_idx ON call_log (called_at);
CREATE INDEX call_log_duration_idx ON call_log (duration_seconds);
CREATE INDEX call_log_created_idx ON call_log (created_at);
CREATE INDEX call_log_fts_idx ON call_log USING gin (to_tsvector('simple', customer_name || ' ' || callee_number));

-- one row each (id = 1)
CREATE TABLE voice_ivr_config (
  id         integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  menu       jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO voice_ivr_config (id, menu) VALUES (1, '{"welcome":"","timeout_seconds":10,"children":[]}');

CREATE TABLE voice_fallback_config (
  id                   integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  enabled              boolean NOT NULL DEFAULT true,
  fallback_reply       text NOT NULL DEFAULT '',
  max_fail_times       integer NOT NULL DEFAULT 2,
  transfer_number      varchar(32) NOT NULL DEFAULT '',
  hangup_message       text NOT NULL DEFAULT '',
  updated_at           timestamptz NOT NULL DEFAULT now()
);
INSERT INTO voice_fallback_config (id) VALUES (1);
