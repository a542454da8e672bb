import { describe, expect, it } from 'vitest';
import { leafKeys, mergeLocaleFiles, resources } from './index';

describe('locale files', () => {
  it('has both locales', () => {
    expect(Object.keys(resources).sort()).toEqual(['en-US', 'zh-CN']);
  });

  it('every key in one locale exists in the other (all namespaces)', () => {
    const zh = new Set(leafKeys(resources['zh-CN']));
    const en = new Set(leafKeys(resources['en-US']));
    expect([...zh].filter((k) => !en.has(k)), 'missing in en-US').toEqual([]);
    expect([...en].filter((k) => !zh.has(k)), 'missing in zh-CN').toEqual([]);
  });

  it('no value is empty', () => {
    for (const lng of Object.keys(resources)) {
      const empty = leafKeys(resources[lng]).filter((k) => {
        const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)?.[p], resources[lng]);
        return typeof v !== 'string' || v.trim() === '';
      });
      expect(empty, lng).toEqual([]);
    }
  });

  it('puts each file under its namespace', () => {
    const merged = mergeLocaleFiles({ './zh-CN/shell.json': { a: { b: 'x' } }, './en-US/shell.json': { a: { b: 'y' } } });
    expect(leafKeys(merged['zh-CN'])).toEqual(['shell.a.b']);
  });
});
