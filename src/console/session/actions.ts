/** Session calls (spec section 7): start-up, login, logout, change password. */
import type { LoginReply, RolePermissionsReply } from '../../contract/replies/session.js';
import type { HttpPort } from '../../runtime/env.js';
import type { SecurityNotice } from '../../runtime/shell.js';
import { clearSessionData, preloadSessionData } from '../../runtime/session-data.js';
import { getLiveTexts, getPermissionTree, hasLiveTexts, setLiveTexts, setPermissionTree, type PermissionTreeReply } from '../../runtime/permission-tree.js';
import type { HttpClient } from '../http/client.js';
import { readSid, writeSid } from '../http/cookies.js';
import { clearSession, sessionStore, setSignedIn, type AppConfig, type SessionUser } from './store.js';

/** The console's client (`getCommon` reaches /api/common/); tests may pass a bare port. */
type SessionHttp = HttpPort & Partial<Pick<HttpClient, 'getCommon'>>;

const pickUser = (data: unknown): SessionUser => {
  const d = data as { user?: SessionUser } & SessionUser;
  const u = d.user ?? d;
  return { id: u.id, email: u.email, name: u.name, roles: u.roles ?? [] };
};

/** The role permissions last applied (refreshLiveTree sets them again only when they differ). */
let lastGrants = '';
const grantsKey = (r: RolePermissionsReply) => JSON.stringify([r.permissions ?? [], r.roles ?? []]);

/** The role's permissions and the permission tree, asked together (the tree's failure is tolerated: null). */
const askGrantsAndTree = (http: HttpPort, silent: boolean) =>
  Promise.all([
    http.post<RolePermissionsReply>('account/role-permissions', undefined, silent ? { silent: true } : undefined),
    http.get<PermissionTreeReply>('schema/permission-tree', undefined, { silent: true }).catch(() => null),
  ]);

/**
 * The role permissions and the permission tree (menus and routes: the manifest plus the schemas'
 * menu pages, derived by the server), both before the session is ready so the routes of schema
 * pages exist when the first page is matched.
 */
async function loadPermissions(http: HttpPort, user: SessionUser): Promise<void> {
  const [reply, tree] = await askGrantsAndTree(http, false);
  if (tree?.modules?.length) setPermissionTree(tree.modules);
  if (tree?.texts) setLiveTexts(tree.texts);
  lastGrants = grantsKey(reply);
  setSignedIn(user, reply.permissions ?? [], reply.roles ?? []);
}

/**
 * Under the server's dev watch only (the tree's reply carried its locale texts): the permission
 * tree, texts and role permissions asked again, so a page added or granted live shows in the menu
 * when the person comes back to the tab — no reload. Without the watch it asks nothing.
 */
export async function refreshLiveTree(http: HttpPort): Promise<void> {
  const s = sessionStore.get();
  if (!hasLiveTexts() || s.status !== 'ready' || !s.user) return;
  const user = s.user;
  const [reply, tree] = await askGrantsAndTree(http, true);
  if (!tree) return;
  // only what changed is set: an unchanged tree or grant redraws nothing (no page loses its input)
  if (tree.texts && JSON.stringify(tree.texts) !== JSON.stringify(getLiveTexts())) setLiveTexts(tree.texts);
  if (tree.modules?.length && JSON.stringify(tree.modules) !== JSON.stringify(getPermissionTree())) setPermissionTree(tree.modules);
  if (grantsKey(reply) !== lastGrants) {
    lastGrants = grantsKey(reply);
    setSignedIn(user, reply.permissions ?? [], reply.roles ?? []);
  }
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

export async function login(http: SessionHttp, email: string, password: string): Promise<SessionUser & { notice: SecurityNotice | null }> {
  const reply = await http.post<LoginReply>('user/login', { email, password });
  writeSid(reply.user.token);
  const user = pickUser(reply.user);
  await loadPermissions(http, user);
  startSessionData(http);
  return { ...user, notice: reply.security_notice ?? null };
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
