import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './typebox.js';

/**
 * Replies of the session calls (server/routes/session.ts, `account/role-permissions` in
 * server/routes/accounts.ts), declared once: the server's reply schemas and the console's types.
 */
export const RoleRef = Type.Object({ id: Type.Integer(), name: Type.String(), is_super_admin: Type.Boolean() });

const userFields = { id: Type.Integer(), email: Type.String(), name: Type.String(), roles: Type.Array(RoleRef) };

/** `GET User/Get`: the signed-in account */
export const UserReply = Type.Object(userFields);

/** the account ceiling was reached since the last sign-in (told once) */
export const SecurityNoticeReply = Type.Object({ since: Nullable(Type.String()), failed_attempts: Type.Integer(), addresses: Type.Integer() });

/** `POST user/login` */
export const LoginReply = Type.Object({
  user: Type.Object({ ...userFields, token: Type.String() }),
  security_notice: Type.Optional(Nullable(SecurityNoticeReply)),
});

/** one record of `account/role-permissions` (flat; the common home first) */
export const PermissionRow = Type.Object({
  id: Type.Integer(),
  pid: Type.Integer(),
  module: Type.String(),
  permission_key: Type.String(),
  permission_name: Type.String(),
  permission_name_en: Type.String(),
  permission_type: Type.Integer(),
  frontend_route: Type.String(),
});

/** `POST account/role-permissions`: the caller's permissions and roles */
export const RolePermissionsReply = Type.Object({ permissions: Type.Array(PermissionRow), roles: Type.Array(RoleRef) });

export const SessionItem = Type.Object({
  id: Type.Integer(),
  ip: Type.String(),
  user_agent: Type.String(),
  created_at: Type.String(),
  last_seen_at: Type.String(),
  expires_at: Type.String(),
  current: Type.Boolean(),
});

/** `GET user/sessions`: my live sessions, newest first */
export const SessionsReply = Type.Object({ list: Type.Array(SessionItem), idle_minutes: Type.Integer(), max_sessions: Type.Integer() });

/** `POST user/session-revoke-others` */
export const RevokedReply = Type.Object({ revoked: Type.Integer() });

/** `GET user/profile`: my info */
export const ProfileReply = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  created_at: Type.String(),
  last_login_at: Nullable(Type.String()),
  super_admin: Type.Boolean(),
  roles: Type.Array(RoleRef),
  modules: Type.Array(Type.Object({ module: Type.String(), keys: Type.Integer() })),
  sessions: Type.Integer(),
  recent: Type.Array(
    Type.Object({ id: Type.Integer(), action: Type.String(), resource: Type.String(), target_id: Nullable(Type.String()), ip: Type.String(), created_at: Type.String() }),
  ),
});

export type User = Static<typeof UserReply>;
export type LoginReply = Static<typeof LoginReply>;
export type SecurityNotice = Static<typeof SecurityNoticeReply>;
export type RolePermissionsReply = Static<typeof RolePermissionsReply>;
export type SessionItem = Static<typeof SessionItem>;
export type RoleRef = Static<typeof RoleRef>;
export type PermissionRow = Static<typeof PermissionRow>;
export type SessionsReply = Static<typeof SessionsReply>;
export type ProfileReply = Static<typeof ProfileReply>;
export type RevokedReply = Static<typeof RevokedReply>;

/** `GET /api/common/config` (server/routes/config.ts): the console's public settings, fetched once after sign-in */
export const AppConfigReply = Type.Object({
  app_name: Type.String(),
  version: Type.String(),
  locales: Type.Array(Type.String()),
  default_locale: Type.String(),
  default_page_size: Type.Integer(),
  max_page_size: Type.Integer(),
  /** the server runs with demo data seeded */
  demo: Type.Boolean(),
});
export type AppConfigReply = Static<typeof AppConfigReply>;
