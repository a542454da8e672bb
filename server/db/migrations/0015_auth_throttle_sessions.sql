-- Sign-in throttling without lock-outs, a shared store for the request rate limit, and session
-- idle timeout / per-account limit (issue 12: server/auth/throttle.ts, rate-limit-store.ts,
-- sessions.ts).

-- Failed (and in-flight) sign-in attempts per email + address. One row per pair, reserved by
-- one INSERT … ON CONFLICT DO UPDATE … WHERE before any password check, so parallel attempts
-- cannot get past the limit; the per-account ceiling and the per-address limit are sums of it.
CREATE TABLE login_throttle (
  email    text NOT NULL,
  ip       text NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  last_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (email, ip)
);
CREATE INDEX login_throttle_ip_idx ON login_throttle (ip, last_at);
CREATE INDEX login_throttle_last_idx ON login_throttle (last_at);

-- the per-email log it replaces (five failures locked an email out from every address)
DROP TABLE login_failures;

-- @fastify/rate-limit's store (server/auth/rate-limit-store.ts): hits per key in a fixed window,
-- shared by every instance on the database.
CREATE TABLE rate_limit_hit (
  key      text PRIMARY KEY,
  hits     integer NOT NULL,
  reset_at timestamptz NOT NULL
);
CREATE INDEX rate_limit_hit_reset_idx ON rate_limit_hit (reset_at);

-- idle timeout: a session unused for SESSION_IDLE_MINUTES is refused
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now();
-- the live sessions of an account (the per-account limit, "my sessions")
CREATE INDEX sessions_account_live_idx ON sessions (account_id, id) WHERE revoked_at IS NULL;
