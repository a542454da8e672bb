import { describe, expect, it } from 'vitest';
import { actionColumnWidth, textWidth } from './width.js';

describe('actionColumnWidth', () => {
  it('gives wide (CJK) characters a full em and narrow ones about half', () => {
    expect(textWidth('删除')).toBe(28);
    expect(textWidth('Delete')).toBeGreaterThan(20);
    expect(textWidth('Delete')).toBeLessThan(textWidth('删除删除'));
  });

  it('grows with each link and with the "more" link, and always holds the column title', () => {
    const one = actionColumnWidth(['编辑'], null);
    const two = actionColumnWidth(['编辑', '删除'], null);
    expect(two).toBeGreaterThan(one + 28);
    expect(actionColumnWidth(['Edit', 'Call log'], 'More')).toBeGreaterThan(actionColumnWidth(['Edit', 'Call log'], null) + 30);
    // "开始 / 删除 / 通话记录" (the call task row that clipped at 172 px) needs more than antd's default
    expect(actionColumnWidth(['详情', '编辑'], '更多')).toBeGreaterThanOrEqual(150);
  });
});
