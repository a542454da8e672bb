/**
 * Layout settings (spec section 4): collapsed menu, dark mode, theme colour, locale, plus the
 * explicit dev-mode flag. Persisted in localStorage under `settings`; they survive logout.
 */
import { createStore, storage } from '../store.js';

export type Locale = 'zh-CN' | 'en-US';
export const LOCALES: readonly Locale[] = ['zh-CN', 'en-US'];
export const DEFAULT_LOCALE: Locale = 'zh-CN';

/** The nine theme colours; the first is the default. */
export const THEME_COLORS = [
  '#1677ff',
  '#722ed1',
  '#13c2c2',
  '#52c41a',
  '#eb2f96',
  '#f5222d',
  '#fa8c16',
  '#fadb14',
  '#2f54eb',
] as const;

export interface Settings {
  collapsed: boolean;
  dark: boolean;
  primaryColor: string;
  locale: Locale;
  devMode: boolean;
}

export const SETTINGS_KEY = 'settings';

/** Accepts the spec's underscore spelling (zh_CN / en_US) too. */
export function normaliseLocale(value: unknown): Locale {
  const v = String(value ?? '').replace('_', '-');
  return (LOCALES as readonly string[]).includes(v) ? (v as Locale) : DEFAULT_LOCALE;
}

/** Dev mode is an explicit setting: `?dev=1` in the URL (remembered) or the stored flag; never NODE_ENV. */
function devFromUrl(): boolean | null {
  const search = globalThis.location?.search ?? '';
  const dev = new URLSearchParams(search).get('dev');
  return dev === null ? null : dev === '1' || dev === 'true';
}

export function loadSettings(): Settings {
  const saved = storage.read<Partial<Settings>>(SETTINGS_KEY) ?? {};
  const devParam = devFromUrl();
  // ?dev=1 / ?dev=0 is remembered, so the flag survives navigation
  if (devParam !== null) storage.write(SETTINGS_KEY, { ...saved, devMode: devParam });
  const color = THEME_COLORS.includes(saved.primaryColor as (typeof THEME_COLORS)[number]) ? saved.primaryColor! : THEME_COLORS[0];
  return {
    collapsed: Boolean(saved.collapsed),
    dark: Boolean(saved.dark),
    primaryColor: color,
    locale: normaliseLocale(saved.locale),
    devMode: devParam ?? Boolean(saved.devMode),
  };
}

export const settingsStore = createStore<Settings>(loadSettings(), (s) => storage.write(SETTINGS_KEY, s));
