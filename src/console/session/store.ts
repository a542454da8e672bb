/**
 * Session state (spec sections 4 and 6): the signed-in user, their flattened permissions and
 * the current module. The user profile (never the token) and the last module are persisted
 * under `sessionkey`; the token lives only in the `sid` cookie.
 */
import { EMPTY_ACCESS, buildAccess, type AccessState, type PermissionRecord, type RoleFlag } from '../../contract/access.js';
import type { RouteModule } from '../../runtime/route-config.js';
import { clearSid } from '../http/cookies.js';
import { clearSessionData } from '../../runtime/session-data.js';
import { createStore, storage } from '../store.js';
import type { AppConfigReply, RoleRef, User } from '../../contract/replies/session.js';

export const SESSION_KEY = 'sessionkey';

/** The signed-in account as `User/Get` and `user/login` send it (declared once: replies/session.ts); roles read for their flag. */
export type SessionUser = Pick<User, 'id' | 'email' | 'name'> & { roles: Array<RoleFlag & Partial<Pick<RoleRef, 'id' | 'name'>>> };

/** `GET /api/common/config` (server/routes/config.ts), fetched once after sign-in; declared once in src/contract (fields optional: an older server may leave some out). */
export type AppConfig = Partial<AppConfigReply>;

export type SessionStatus = 'booting' | 'anonymous' | 'ready' | 'error';

export interface SessionState {
  status: SessionStatus;
  user: SessionUser | null;
  access: AccessState;
  /** module of the route last entered (unauth_common on /home) */
  currentModule: RouteModule | null;
  /** last business module entered; the side menu shows it on module-less pages */
  menuModule: RouteModule | null;
  /** the server's public settings, loaded after sign-in (not persisted) */
  config: AppConfig | null;
}

interface Persisted {
  user?: SessionUser | null;
  menuModule?: RouteModule | null;
}

const saved = storage.read<Persisted>(SESSION_KEY) ?? {};

export const sessionStore = createStore<SessionState>(
  { status: 'booting', user: saved.user ?? null, access: EMPTY_ACCESS, currentModule: null, menuModule: saved.menuModule ?? null, config: null },
  (s) => {
    if (s.status === 'anonymous') return;
    storage.write(SESSION_KEY, { user: s.user, menuModule: s.menuModule } satisfies Persisted);
  },
);

/** Stores the user and their flattened permissions. */
export function setSignedIn(user: SessionUser, permissions: PermissionRecord[], roles: RoleFlag[]): void {
  sessionStore.set({ status: 'ready', user, access: buildAccess(permissions, [...user.roles, ...roles]) });
}

/** Logout / 20001 / reset: clears user state, the persisted state and the `sid` cookie. */
export function clearSession(): void {
  clearSid();
  storage.remove(SESSION_KEY);
  clearSessionData();
  sessionStore.set({ status: 'anonymous', user: null, access: EMPTY_ACCESS, currentModule: null, menuModule: null, config: null });
}

/** Tracks the current module on route entry. */
export function enterModule(module: RouteModule | null): void {
  const s = sessionStore.get();
  const menuModule = module && module !== 'unauth_common' ? module : s.menuModule;
  if (s.currentModule !== module || s.menuModule !== menuModule) sessionStore.set({ currentModule: module, menuModule });
}
