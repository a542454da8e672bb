import { describe, expect, it } from 'vitest';
import feedbackStatus from '../../../schemas/enums/feedback_status.json';
import type { EnumDef } from '../../contract/enums.js';
import { buildFigures, statusColor, type HomeStats } from './HomeFigures.build.js';
import { HOME_TEXTS } from './texts.js';

const FEEDBACK = feedbackStatus as EnumDef;

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

describe('status charts', () => {
  it("draw each status in its enum file's colour, in both themes", () => {
    const data = {
      module: 'intelligent_text',
      tz: 'UTC',
      days: [],
      figures: { feedback_by_status: { total: 6, items: [{ key: 'pending', count: 1 }, { key: 'processing', count: 2 }, { key: 'processed', count: 3 }] } },
    } as unknown as HomeStats;
    for (const dark of [false, true]) {
      const chart = buildFigures(data, (k) => k, 'en-US', dark).charts.find((c) => c.id === 'feedback')!;
      const want = ['pending', 'processing', 'processed'].map((k) => statusColor(FEEDBACK, k, dark, 'x'));
      expect(chart.series[0].colors).toEqual(want);
      expect(new Set(want).size).toBe(3); // default grey, processing blue, success green
    }
  });
});
