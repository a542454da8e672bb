-- Issue 20: infrastructure failures are not job failures. A job cut off by a crash, a kill, a
-- SIGTERM or a database outage is queued again without spending an attempt; how often that
-- happened is counted here, apart from `attempts` (both shown on the Jobs page).
ALTER TABLE work_job ADD COLUMN interruptions integer NOT NULL DEFAULT 0;
