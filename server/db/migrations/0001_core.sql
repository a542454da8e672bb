-- Core tables: permissions, roles, accounts, sessions, login throttling, audit log.

CREATE TABLE permissions (
  id              serial PRIMARY KEY,
  pid             integer NOT NULL DEFAULT 0,
  module          text NOT NULL,
  permission_key  text NOT NULL,
  permission_name text NOT NULL,
  permission_name_en text NOT NULL DEFAULT '',
  permission_type smallint NOT NULL CHECK (permission_type IN (1, 2, 3, 4)),
  frontend_route  text NOT NULL DEFAULT '',
  sort            integer NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (module, permission_key)
);
CREATE INDEX permissions_pid_idx ON permissions (pid);

CREATE TABLE roles (
  id             serial PRIMARY KEY,
  name           text NOT NULL UNIQUE,
  is_super_admin boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE role_permissions (
  role_id       integer NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  permission_id integer NOT NULL REFERENCES permissions (id) ON DELETE CASCADE,
  PRIMARY KEY (role_id, permission_id)
);
CREATE INDEX role_permissions_permission_idx ON role_permissions (permission_id);

CREATE TABLE accounts (
  id            serial PRIMARY KEY,
  email         text NOT NULL UNIQUE,
  name          text NOT NULL DEFAULT '',
  password_hash text NOT NULL,
  status        smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  last_login_at timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE account_roles (
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role_id    integer NOT NULL REFERENCES roles (id) ON DELETE RESTRICT,
  PRIMARY KEY (account_id, role_id)
);
CREATE INDEX account_roles_role_idx ON account_roles (role_id);

-- token_hash / guard_hash: sha256 (hex) of the session token and of the HttpOnly guard value.
CREATE TABLE sessions (
  id         serial PRIMARY KEY,
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  guard_hash text NOT NULL,
  ip         text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_account_idx ON sessions (account_id);

CREATE TABLE login_failures (
  id         bigserial PRIMARY KEY,
  email      text NOT NULL,
  ip         text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_email_idx ON login_failures (email, created_at);
CREATE INDEX login_failures_ip_idx ON login_failures (ip, created_at);

CREATE TABLE audit_logs (
  id          bigserial PRIMARY KEY,
  actor_id    integer,
  actor_email text NOT NULL DEFAULT '',
  action      text NOT NULL,
  resource    text NOT NULL,
  target_id   text,
  before      jsonb,
  after       jsonb,
  ip          text NOT NULL DEFAULT '',
  user_agent  text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_logs_created_idx ON audit_logs (created_at DESC);
CREATE INDEX audit_logs_actor_idx ON audit_logs (actor_id, created_at DESC);
CREATE INDEX audit_logs_resource_idx ON audit_logs (resource, action, created_at DESC);
