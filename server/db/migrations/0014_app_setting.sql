-- Small named facts the server keeps about itself (one row each), e.g. that the demo operator
-- account was created once (server/db/seed-core.ts), so it is never recreated after an admin
-- deletes it.
CREATE TABLE app_setting (
  key        text PRIMARY KEY,
  value      jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);
