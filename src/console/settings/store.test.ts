import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSettings, normaliseLocale, THEME_COLORS } from './store.js';

function fakeStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  });
  return map;
}

afterEach(() => vi.unstubAllGlobals());

describe('settings', () => {
  it('defaults to zh-CN, light, expanded and #1677ff, with nine colours', () => {
    fakeStorage();
    expect(loadSettings()).toEqual({ collapsed: false, dark: false, primaryColor: '#1677ff', locale: 'zh-CN', devMode: false });
    expect(THEME_COLORS).toHaveLength(9);
  });

  it('reads saved settings and refuses unknown colours and locales', () => {
    fakeStorage({ settings: JSON.stringify({ dark: true, primaryColor: '#722ed1', locale: 'en_US', collapsed: true }) });
    expect(loadSettings()).toMatchObject({ dark: true, primaryColor: '#722ed1', locale: 'en-US', collapsed: true });
    fakeStorage({ settings: JSON.stringify({ primaryColor: 'red', locale: 'fr' }) });
    expect(loadSettings()).toMatchObject({ primaryColor: '#1677ff', locale: 'zh-CN' });
  });

  it('turns dev mode on from ?dev=1 and remembers it (never from NODE_ENV)', () => {
    const map = fakeStorage();
    vi.stubGlobal('location', { search: '?dev=1' });
    expect(loadSettings().devMode).toBe(true);
    expect(JSON.parse(map.get('settings')!).devMode).toBe(true);
    vi.stubGlobal('location', { search: '' });
    expect(loadSettings().devMode).toBe(true);
  });

  it('normalises locale spellings', () => {
    expect(normaliseLocale('zh_CN')).toBe('zh-CN');
    expect(normaliseLocale('en-US')).toBe('en-US');
    expect(normaliseLocale(undefined)).toBe('zh-CN');
  });
});
