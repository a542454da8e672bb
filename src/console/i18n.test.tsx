import { describe, expect, it } from 'vitest';
import { createI18n, hasNamespaces, loadLocale, loadNamespaces, MODULE_NAMESPACES, namespacesOf } from './i18n.js';

describe('modules\' texts per page', () => {
  it('reads the namespaces a schema names from its keys (the shell\'s core ones and other strings aside)', () => {
    const doc = { title: 'text.shop.title', toolbar: [{ label: 'shared.common.add' }], empty: 'runtime.list.empty', ok: 'common.ok', api: 'GET shop/list', note: 'a.b c' };
    // `text` comes in parts (vite.config.ts localeParts): the part a key names
    expect(namespacesOf(doc).sort()).toEqual(['runtime', 'shared', 'text.shop']);
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

describe('the text namespace in parts', () => {
  it('adds the parts asked for and nothing else of the namespace; the whole namespace covers every part', async () => {
    const i18n = createI18n('zh-CN');
    await loadNamespaces(i18n, 'zh-CN', ['text.shop']);
    expect(hasNamespaces(i18n, 'zh-CN', ['text.shop'])).toBe(true);
    expect(i18n.exists('text.shop.title')).toBe(true);
    expect(hasNamespaces(i18n, 'zh-CN', ['text.sync'])).toBe(false);
    expect(i18n.exists('text.sync.start')).toBe(false);
    await loadNamespaces(i18n, 'zh-CN', ['text']);
    expect(hasNamespaces(i18n, 'zh-CN', ['text.sync', 'text.profile'])).toBe(true);
    expect(i18n.exists('text.sync.start')).toBe(true);
    // a part the map does not know brings the whole namespace
    const third = createI18n('zh-CN');
    await loadNamespaces(third, 'zh-CN', ['text.noSuchPart']);
    expect(hasNamespaces(third, 'zh-CN', ['text.noSuchPart', 'text.sync'])).toBe(true);
    expect(third.exists('text.sync.start')).toBe(true);
    // a part asked for in English comes in Chinese once Chinese loads
    const other = createI18n('en-US');
    await loadNamespaces(other, 'en-US', ['text.connect']);
    await loadLocale(other, 'zh-CN');
    expect(hasNamespaces(other, 'zh-CN', ['text.connect'])).toBe(true);
    expect(other.getResource('zh-CN', 'translation', 'text.connect.open')).toBeTruthy();
  });
});
