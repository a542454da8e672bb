-- Issue 20 (queue throughput): the state index leaves out finished jobs ('done'), the great
-- majority of rows. A job's final write to 'done' then adds no entry to it (one index write less
-- per job), and the index stays the size of the live, failed and cancelled jobs. The Jobs page's
-- filter on a state other than 'done' and the engine's recovery ('running', 'queued') still read
-- it; "done, newest first" reads the primary key backwards (nearly every row is done).
DROP INDEX IF EXISTS work_job_state_idx;
CREATE INDEX work_job_state_idx ON work_job (state, id DESC) WHERE state IN ('queued', 'running', 'failed', 'cancelled');
