import { describe, expect, it } from 'vitest';
import { pickHalf } from './bilingual.js';

describe('pickHalf', () => {
  it('keeps the half of each "english / 中文" part in the locale, anything else as it is', () => {
    const reason = 'no enabled model server reads images: mark one as vision / 没有启用的视觉模型服务';
    expect(pickHalf(reason, 'zh-CN')).toBe('没有启用的视觉模型服务');
    expect(pickHalf(reason, 'en-US')).toBe('no enabled model server reads images: mark one as vision');
    expect(pickHalf('a / 甲; b / 乙', 'zh-CN')).toBe('甲；乙');
    expect(pickHalf('HTTP 500: upstream exploded', 'zh-CN')).toBe('HTTP 500: upstream exploded');
    expect(pickHalf('1 / 2', 'en-US')).toBe('1 / 2');
  });
});
