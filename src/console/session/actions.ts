/** Session calls (spec section 7): start-up, login, logout, change password. */
import type { PermissionRecord, RoleFlag } from '../../contract/access.js';
import type { HttpPort } from '../../runtime/env.js';
import { clearSessionData, preloadSessionData } from '../../runtime/session-data.js';
import { setLiveTexts, setPermissionTree, type PermissionTreeReply } from '../../runtime/permission-tree.js';
import type { HttpClient } from '../http/client.js';
import { readSid, writeSid } from '../http/cookies.js';
import { clearSession, sessionStore, setSignedIn, type AppConfig, type SessionUser } from './store.js';

/** The console's client (`getCommon` reaches /api/common/); tests may pass a bare port. */
type SessionHttp = HttpPort & Partial<Pick<HttpClient, 'getCommon'>>;

interface LoginReply {
  user: SessionUser & { token: string };
}

interface RolePermissionsReply {
  permissions: PermissionRecord[];
  roles: RoleFlag[];
}

const pickUser = (data: unknown): SessionUser => {
  const d = data as { user?: SessionUser } & SessionUser;
  const u = d.user ?? d;
  return { id: u.id, email: u.email, name: u.name, roles: u.roles ?? [] };
};

/**
 * The role permissions and the permission tree (menus and routes: the manifest plus the schemas'
 * menu pages, derived by the server), both before the session is ready so the routes of schema
 * pages exist when the first page is matched.
 */
async function loadPermissions(http: HttpPort, user: SessionUser): Promise<void> {
  const [reply, tree] = await Promise.all([
    http.post<RolePermissionsReply>('account/role-permissions'),
    http.get<PermissionTreeReply>('schema/permission-tree', undefined, { silent: true }).catch(() => null),
  ]);
  if (tree?.modules?.length) setPermissionTree(tree.modules);
  if (tree?.texts) setLiveTexts(tree.texts);
  setSignedIn(user, reply.permissions ?? [], reply.roles ?? []);
}

/**
 * Start-up calls once signed in (spec section 7), neither awaited by the page: `GET config` on
 * the common base (kept in the session store: version and demo flag for the shell, page sizes),
 * and the session-wide lookups (`GET shop-list` env=all) that shop pickers then read.
 */
function startSessionData(http: SessionHttp): void {
  clearSessionData();
  preloadSessionData(http);
  http
    .getCommon?.<AppConfig>('config', undefined, { silent: true })
    .then((config) => sessionStore.set({ config }))
    .catch(() => undefined);
}

/** Start-up: `GET User/Get` only when a saved token exists, then the role permissions. */
export async function bootSession(http: SessionHttp): Promise<void> {
  if (!readSid()) {
    clearSession();
    return;
  }
  sessionStore.set({ status: 'booting' });
  try {
    const user = pickUser(await http.get<unknown>('User/Get', undefined, { silent: true }));
    await loadPermissions(http, user);
    startSessionData(http);
  } catch (e) {
    // 20001 already cleared the session; anything else is a failed start-up the person can retry
    if (sessionStore.get().status !== 'anonymous') sessionStore.set({ status: 'error' });
    throw e;
  }
}

export async function login(http: SessionHttp, email: string, password: string): Promise<SessionUser> {
  const reply = await http.post<LoginReply>('user/login', { email, password });
  writeSid(reply.user.token);
  const user = pickUser(reply.user);
  await loadPermissions(http, user);
  startSessionData(http);
  return user;
}

export async function logout(http: HttpPort): Promise<void> {
  try {
    await http.post('user/logout', undefined, { silent: true });
  } finally {
    clearSession();
  }
}

export async function changePassword(http: HttpPort, oldPassword: string, newPassword: string): Promise<void> {
  await http.post('user/update-pwd', { old_password: oldPassword, new_password: newPassword });
}
