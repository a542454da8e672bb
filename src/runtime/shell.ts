/**
 * What the bespoke screens (src/screens) need of the console shell, as one port: the
 * RuntimeEnv every page gets, the session and settings they read, and the few shell actions
 * they start (sign in, change the password, forget the session on this device). The shell
 * provides it (src/console/shell.tsx); screens reach it only through `useShell()`, so the arrows
 * stay one way — screens → widgets → runtime — and a test can hand a screen a fake shell.
 */
import { createContext, useContext, type ComponentType } from 'react';
import type { AccessState } from '../contract/access.js';
import type { RuntimeEnv } from './env.js';
import type { SecurityNotice, User } from '../contract/replies/session.js';

/** The signed-in account (declared once: `User/Get`, replies/session.ts), as a screen reads it. */
export type ShellUser = Pick<User, 'id' | 'email' | 'name'>;

/** The session and layout settings a screen may read. */
export interface ShellState {
  status: 'booting' | 'anonymous' | 'ready' | 'error';
  user: ShellUser | null;
  access: AccessState;
  locale: 'zh-CN' | 'en-US';
  dark: boolean;
}

export interface Shell {
  env: RuntimeEnv;
  /** a hook: the selected part of the shell's state, re-rendering when it changes */
  useState<S>(select: (s: ShellState) => S): S;
  /** signs in (the session, permissions and session lookups are loaded when it resolves) */
  /** signs in; resolves to the security notice of the sign-in reply (the account ceiling was reached since the last sign-in), or null */
  login(email: string, password: string): Promise<SecurityNotice | null>;
  changePassword(oldPassword: string, newPassword: string): Promise<void>;
  /** forgets the session on this device (after its token was revoked) */
  forgetSession(): void;
  /** starts loading the HTTP library early (the login form, on focus) */
  warmUp(): void;
  /** what a raw `fetch` (a server-sent event stream) needs: the API base URL and the session's headers */
  rawRequest(): { base: string; headers: Record<string, string> };
  /** the language switch the shell's header shows */
  LanguageSwitch: ComponentType;
}

export const ShellContext = createContext<Shell | null>(null);

export function useShell(): Shell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('a screen rendered outside the console shell (<ShellContext.Provider>)');
  return shell;
}

/** What the sign-in reply tells the owner when its account ceiling was reached since its last sign-in (server/auth/throttle.ts). */
export type { SecurityNotice };
