import { describe, expect, it } from 'vitest';
import { HOME_TEXTS } from './texts.js';

type Tree = { [k: string]: string | Tree };
const leaves = (t: Tree, prefix = ''): Array<[string, string]> =>
  Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v, `${prefix}${k}.`)));

describe('module home texts', () => {
  it('both locales have the same keys, none empty', () => {
    const zh = leaves(HOME_TEXTS['zh-CN'] as Tree);
    const en = leaves(HOME_TEXTS['en-US'] as Tree);
    expect(zh.map(([k]) => k).sort()).toEqual(en.map(([k]) => k).sort());
    expect([...zh, ...en].filter(([, v]) => v.trim() === '')).toEqual([]);
  });
});
