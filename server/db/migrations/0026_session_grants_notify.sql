-- Sign-out, password changes, disabled accounts and role changes take effect on every instance at
-- once (issue 25): a change that can end a session or change its keys NOTIFYs `session_grants`
-- (delivered at commit); each API instance on PostgreSQL LISTENs and drops its kept session
-- look-ups (server/app.ts, server/auth/sessions.ts SESSION_TABLES). A session's last use
-- (`last_seen_at`) and an account's last sign-in are not such changes and notify nothing.
CREATE FUNCTION notify_session_grants() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('session_grants', TG_TABLE_NAME);
  RETURN NULL;
END $fn$;

CREATE TRIGGER session_grants_revoked AFTER UPDATE ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
  EXECUTE FUNCTION notify_session_grants();
CREATE TRIGGER session_grants_deleted AFTER DELETE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_grants();
CREATE TRIGGER session_grants_account AFTER UPDATE ON accounts
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.password_hash IS DISTINCT FROM NEW.password_hash
                     OR OLD.email IS DISTINCT FROM NEW.email OR OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION notify_session_grants();
CREATE TRIGGER session_grants_account_deleted AFTER DELETE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_grants();
CREATE TRIGGER session_grants_account_roles AFTER INSERT OR UPDATE OR DELETE ON account_roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_grants();
CREATE TRIGGER session_grants_roles AFTER UPDATE OR DELETE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_grants();
CREATE TRIGGER session_grants_role_permissions AFTER INSERT OR UPDATE OR DELETE ON role_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_grants();
CREATE TRIGGER session_grants_permissions AFTER UPDATE OR DELETE ON permissions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_grants();
