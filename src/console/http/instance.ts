/**
 * The console's one HTTP client. Its UI hooks (error toast, navigation to /login, translate)
 * are bound by the shell once antd's App and the router exist; until then errors go to the console.
 */
import { clearSession } from '../session/store.js';
import { readSid } from './cookies.js';
import { createHttpClient } from './client.js';
import { settingsStore } from '../settings/store.js';

export interface HttpUi {
  t(key: string, vars?: Record<string, unknown>): string;
  showError(text: string): void;
  toLogin(): void;
}

const ui: HttpUi = {
  t: (key) => key,
  showError: (text) => console.error(text),
  toLogin: () => globalThis.location?.assign('/login'),
};

export function bindHttpUi(next: Partial<HttpUi>): void {
  Object.assign(ui, next);
}

export const http = createHttpClient({
  t: (key, vars) => ui.t(key, vars),
  showError: (text) => ui.showError(text),
  onUnauthorized: () => {
    clearSession();
    ui.toLogin();
  },
  getToken: readSid,
  getLocale: () => settingsStore.get().locale,
});
