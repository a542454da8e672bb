import { describe, expect, it } from 'vitest';
import { createI18n, hasNamespaces, loadLocale, loadNamespaces, MODULE_NAMESPACES, namespacesOf } from './i18n.js';

describe('modules\' texts per page', () => {
  it('reads the namespaces a schema names from its keys (the shell\'s core ones and other strings aside)', () => {
    const doc = { title: 'text.shop.title', toolbar: [{ label: 'shared.common.add' }], empty: 'runtime.list.empty', ok: 'common.ok', api: 'GET shop/list', note: 'a.b c' };
    expect(namespacesOf(doc).sort()).toEqual(['runtime', 'shared', 'text']);
    expect(MODULE_NAMESPACES).toContain('text');
    expect(MODULE_NAMESPACES).not.toContain('shell');
  });

  it('adds only the namespaces asked for, and brings them along when the language comes back', async () => {
    const i18n = createI18n('zh-CN');
    expect(i18n.exists('text.shop.title')).toBe(false);
    expect(hasNamespaces(i18n, 'zh-CN', ['text'])).toBe(false);
    await loadNamespaces(i18n, 'zh-CN', ['text']);
    expect(hasNamespaces(i18n, 'zh-CN', ['text'])).toBe(true);
    expect(i18n.exists('text.shop.title')).toBe(true);
    expect(i18n.exists('voiceCenter.common.id')).toBe(false);
    // English holds every namespace
    await loadLocale(i18n, 'en-US');
    expect(hasNamespaces(i18n, 'en-US', ['voiceCenter'])).toBe(true);
    // a fresh instance asked for `text` in English gets it in Chinese as soon as Chinese loads
    const other = createI18n('en-US');
    await loadNamespaces(other, 'en-US', ['text']);
    await loadLocale(other, 'zh-CN');
    expect(hasNamespaces(other, 'zh-CN', ['text'])).toBe(true);
  });
});
