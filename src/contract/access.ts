/**
 * Permission logic of spec section 6, as pure functions shared by the console shell and the
 * server: flatten the caller's permissions (by route and by `module.permission_key`), decide
 * super admin, module access and whether a route may be opened.
 */
import { COMMON_HOME, UNAUTH_COMMON } from './permission-manifest.js';
import type { PermissionRow } from './replies/session.js';

/**
 * What the access rules read of a permission record (spec section 3): a row of
 * `account/role-permissions` (declared once: `PermissionRow`, replies/session.ts), or a node of
 * a tree (`children_recursive`); the names, type and route may be missing (the synthetic common home).
 */
export type PermissionRecord = Pick<PermissionRow, 'id' | 'pid' | 'module' | 'permission_key'> &
  Partial<Pick<PermissionRow, 'permission_name' | 'permission_type'>> & { frontend_route?: string | null; children_recursive?: PermissionRecord[] };

/** A role entry of the signed-in user; only the super-admin flag matters here. */
export interface RoleFlag {
  is_super_admin?: boolean | number | null;
}

export interface AccessState {
  superAdmin: boolean;
  /** flattened `module.permission_key` set */
  keys: ReadonlySet<string>;
  /** permissions by `frontend_route` */
  byRoute: ReadonlyMap<string, PermissionRecord>;
}

/** What the guard needs to know about a route. */
export interface GuardedRoute {
  /** module prefix; absent for module-less pages (no-permission, change-password) */
  module?: string | null;
  /** the route needs authorization */
  auth?: boolean;
  /** flattened key `module.key` */
  permissionKey?: string;
  /** the route's own key, the fallback when there is no permission key */
  key?: string;
}

export const flatKey = (p: Pick<PermissionRecord, 'module' | 'permission_key'>): string =>
  `${p.module}.${p.permission_key}`;

/** Walks a flat list or a tree (`children_recursive`) into a list, each record once. */
export function walkPermissions(list: readonly PermissionRecord[]): PermissionRecord[] {
  const out: PermissionRecord[] = [];
  const visit = (p: PermissionRecord) => {
    out.push(p);
    for (const c of p.children_recursive ?? []) visit(c);
  };
  list.forEach(visit);
  return out;
}

/** Flattens permissions by route; the synthetic common-home permission is always added. */
export function flattenByRoute(list: readonly PermissionRecord[]): Map<string, PermissionRecord> {
  const map = new Map<string, PermissionRecord>();
  for (const p of [...walkPermissions(list), COMMON_HOME]) {
    if (p.frontend_route) map.set(p.frontend_route, p);
  }
  return map;
}

/** Flattens permissions to the set of `module.permission_key` (common home included). */
export function flattenByKey(list: readonly PermissionRecord[]): Set<string> {
  const keys = new Set<string>();
  for (const p of [...walkPermissions(list), COMMON_HOME]) keys.add(flatKey(p));
  return keys;
}

/** A user is super admin when any role entry carries the flag. */
export function isSuperAdmin(roles: readonly RoleFlag[] | null | undefined): boolean {
  return (roles ?? []).some((r) => Boolean(r.is_super_admin));
}

export function buildAccess(permissions: readonly PermissionRecord[], roles: readonly RoleFlag[]): AccessState {
  return { superAdmin: isSuperAdmin(roles), keys: flattenByKey(permissions), byRoute: flattenByRoute(permissions) };
}

export const EMPTY_ACCESS: AccessState = { superAdmin: false, keys: new Set(), byRoute: new Map() };

/** Does the account hold this flattened key? Super admin holds everything. */
export function can(access: AccessState, permissionKey: string): boolean {
  return access.superAdmin || access.keys.has(permissionKey);
}

/** Module access: the unauthenticated-common module, or any held key starting with the module prefix. */
export function hasModuleAccess(access: AccessState, module: string): boolean {
  if (access.superAdmin || module === UNAUTH_COMMON) return true;
  for (const k of access.keys) if (k.startsWith(module)) return true;
  return false;
}

/**
 * The route guard of spec section 6: super admin passes; the module must be accessible;
 * when the route needs auth and has a permission key (falling back to the route key) the
 * user must hold it. Routes without the auth flag or a key pass.
 */
export function canOpenRoute(access: AccessState, route: GuardedRoute): boolean {
  if (access.superAdmin) return true;
  if (route.module && !hasModuleAccess(access, route.module)) return false;
  const key = route.permissionKey ?? route.key;
  if (route.auth && key) return access.keys.has(key);
  return true;
}
