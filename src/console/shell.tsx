/**
 * The console's side of the screens' port (src/runtime/shell.ts): the shell's stores, session
 * actions, HTTP client and language switch, bound once.
 */
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import type { RuntimeEnv } from '../runtime/env.js';
import { ShellContext, type Shell, type ShellState } from '../runtime/shell.js';
import { readSid } from './http/cookies.js';
import { apiBase } from './http/host.js';
import { http } from './http/instance.js';
import { preloadTransport } from './http/lazy-transport.js';
import { LanguageSwitch } from './layout/LanguageSwitch.js';
import { changePassword, login } from './session/actions.js';
import { clearSession, sessionStore } from './session/store.js';
import { settingsStore } from './settings/store.js';

function useShellState<S>(select: (s: ShellState) => S): S {
  const session = sessionStore.use((s) => s);
  const settings = settingsStore.use((s) => s);
  return select({ status: session.status, user: session.user, access: session.access, locale: settings.locale, dark: settings.dark });
}

export function ShellProvider({ env, children }: { env: RuntimeEnv; children: ReactNode }) {
  const shell = useMemo<Shell>(
    () => ({
      env,
      useState: useShellState,
      login: async (email, password) => (await login(http, email, password)).notice,
      changePassword: (oldPassword, newPassword) => changePassword(http, oldPassword, newPassword),
      forgetSession: () => clearSession(),
      warmUp: () => void preloadTransport().catch(() => undefined),
      rawRequest: () => {
        const headers: Record<string, string> = { 'x-lang': settingsStore.get().locale };
        const sid = readSid();
        if (sid) headers['admin-token'] = sid;
        return { base: apiBase(), headers };
      },
      LanguageSwitch,
    }),
    [env],
  );
  return <ShellContext.Provider value={shell}>{children}</ShellContext.Provider>;
}
