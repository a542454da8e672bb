import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { presetRange } from '../../widgets/inputs/date-presets.js';
import { rankRecent } from '../../widgets/inputs/recent-shops.js';
import { formFromQuery, queryFromForm, stateFromQuery } from './url-filters.js';

describe('session viewer filters in the URL', () => {
  it('a search writes every filter as query keys, back on page 1, and the same URL reads back the same filters', () => {
    const range: [dayjs.Dayjs, dayjs.Dayjs] = [dayjs('2026-11-20'), dayjs('2026-11-27')];
    const q = queryFromForm({ shop_id: 7, range, extra: 'web', keyword: ' refund ' }, 'channel');
    expect(q).toEqual({ shop_id: '7', mail_account_id: undefined, from: '2026-11-20', to: '2026-11-27', keyword: 'refund', page: undefined, session: undefined, channel: 'web' });
    const values = Object.fromEntries(Object.entries({ ...q, page: '3', session: '41' }).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const st = stateFromQuery(values, 'channel');
    expect(st).toMatchObject({ page: 3, session: 41, filters: { shop_id: 7, extra: 'web', keyword: 'refund' } });
    expect(st.filters.from).toBe(dayjs('2026-11-20').startOf('day').toISOString());
    expect(st.filters.to).toBe(dayjs('2026-11-27').endOf('day').toISOString());
    const form = formFromQuery(values, 'channel');
    expect(form.range?.map((d) => d.format('YYYY-MM-DD'))).toEqual(['2026-11-20', '2026-11-27']);
  });

  it('ignores what is not a filter value: bad ids, bad days, a half range', () => {
    const st = stateFromQuery({ shop_id: 'x', page: '-2', from: '2026-13-45', to: 'today' }, null);
    expect(st).toEqual({ filters: { shop_id: undefined, mail_account_id: undefined, from: undefined, to: undefined, extra: undefined, keyword: undefined }, page: 1, session: null });
    expect(formFromQuery({ from: '2026-11-20' }, null).range).toBeUndefined();
  });
});

describe('date presets and recent shops', () => {
  it('presets: today, yesterday, the last 7 days and this month, by days', () => {
    const now = dayjs('2026-11-27T15:00:00');
    const f = (p: Parameters<typeof presetRange>[0]) => presetRange(p, now).map((d) => d.format('YYYY-MM-DD HH:mm'));
    expect(f('today')).toEqual(['2026-11-27 00:00', '2026-11-27 23:59']);
    expect(f('yesterday')).toEqual(['2026-11-26 00:00', '2026-11-26 23:59']);
    expect(f('last7Days')).toEqual(['2026-11-21 00:00', '2026-11-27 23:59']);
    expect(f('thisMonth')).toEqual(['2026-11-01 00:00', '2026-11-27 23:59']);
  });

  it('recent shops come first, in the order used; the rest keep their order', () => {
    const shops = [1, 2, 3, 4, 5].map((id) => ({ id }));
    const r = rankRecent(shops, (s) => s.id, [4, 2, 99]);
    expect(r.items.map((s) => s.id)).toEqual([4, 2, 1, 3, 5]);
    expect([...r.recent]).toEqual([4, 2]);
  });
});
