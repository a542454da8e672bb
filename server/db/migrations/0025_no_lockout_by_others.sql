-- No lock-out by others (issue 25, server/auth/throttle.ts): the per-account ceiling no longer
-- refuses a sign-in from a new address; it holds the (account, address) pair for a bounded delay
-- first. `held_since` is when that pair's hold began (its first attempt over the ceiling);
-- `ceiling_hit_at` tells the owner at the next sign-in that the ceiling was reached.
ALTER TABLE login_throttle ADD COLUMN held_since timestamptz;
ALTER TABLE accounts ADD COLUMN ceiling_hit_at timestamptz;
