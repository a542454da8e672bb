/**
 * The figures of a module home from a `GET home/stats` reply: numbers and chart definitions in
 * the page's language and theme (pure; HomeFigures.tsx draws them), and each chart's
 * accessible name.
 */
import callResult from '../../../schemas/enums/call_result.json';
import feedbackStatus from '../../../schemas/enums/feedback_status.json';
import taskStatus from '../../../schemas/enums/task_status.json';
import { enumLabel, type EnumDef } from '../../contract/enums.js';
import type { HomeFigures, HomeStats } from '../../contract/replies/home-stats.js';
import type { ChartSeries } from './HomeChart.js';

const CALL_RESULT = callResult as EnumDef;
const FEEDBACK_STATUS = feedbackStatus as EnumDef;
const TASK_STATUS = taskStatus as EnumDef;

/** the reply of `GET home/stats`, declared once in src/contract (the server's reply schema) */
export type { HomeStats };
type ByKey = NonNullable<HomeFigures['feedback_by_status']>;
type Share = NonNullable<HomeFigures['ai_resolved']>;

export interface StatDef {
  id: string;
  title: string;
  value: string;
  /** the number behind the value (data-value, for tests and tools) */
  raw: number | null;
  hint?: string;
}
export interface ChartDef {
  id: string;
  title: string;
  categories: string[];
  series: ChartSeries[];
  stacked?: boolean;
  horizontal?: boolean;
  /** per-day charts name each series' total in their description, the others each bar */
  perDay?: boolean;
}

/** Series colours with at least 3:1 against the card in each theme (WCAG 1.4.11). */
const PALETTE = {
  light: ['#1668dc', '#389e0d', '#d46b08', '#722ed1', '#c41d7f', '#08979c', '#5b6b00'],
  dark: ['#3c89e8', '#6abe39', '#e89a3c', '#9a6fe0', '#e0529c', '#33bcb7', '#c9d13c'],
};
/** call results: 1 success green, 2–4 failures red / orange / purple */
const RESULT_COLORS = { light: ['#389e0d', '#cf1322', '#d46b08', '#722ed1'], dark: ['#6abe39', '#e84749', '#e89a3c', '#9a6fe0'] };

/**
 * The enum files' status colours (antd tag colour names) as bar colours, each with at least 3:1
 * against the card in its theme; a name not listed takes the first series colour.
 */
const STATUS_COLORS: Record<'light' | 'dark', Record<string, string>> = {
  light: { default: '#8c8c8c', processing: '#1668dc', success: '#389e0d', error: '#cf1322', warning: '#d46b08', blue: '#1668dc', green: '#389e0d', red: '#cf1322', orange: '#d46b08', gold: '#ad8b00', purple: '#722ed1', cyan: '#08979c', magenta: '#c41d7f', volcano: '#d4380d', geekblue: '#1d39c4' },
  dark: { default: '#8c8c8c', processing: '#3c89e8', success: '#6abe39', error: '#e84749', warning: '#e89a3c', blue: '#3c89e8', green: '#6abe39', red: '#e84749', orange: '#e89a3c', gold: '#d8bd14', purple: '#9a6fe0', cyan: '#33bcb7', magenta: '#e0529c', volcano: '#e87040', geekblue: '#5a7ef0' },
};

/** The colour of `key` in `def` (its `color`) in the theme, or `fallback`. */
export function statusColor(def: EnumDef, key: string, dark: boolean, fallback: string): string {
  const name = def.items.find((it) => String(it.value) === key)?.color;
  return (name && STATUS_COLORS[dark ? 'dark' : 'light'][name]) || fallback;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** status items in the enum's order (unknown values after, as themselves), zero counts left out */
function byEnum(def: EnumDef, items: ByKey['items']): ByKey['items'] {
  const order = new Map(def.items.map((it, i) => [String(it.value), i]));
  return [...items].sort((a, b) => (order.get(a.key) ?? 999) - (order.get(b.key) ?? 999) || a.key.localeCompare(b.key));
}

export function buildFigures(
  data: HomeStats,
  t: (key: string, vars?: Record<string, unknown>) => string,
  locale: 'zh-CN' | 'en-US',
  dark: boolean,
): { stats: StatDef[]; charts: ChartDef[] } {
  const f = data.figures;
  const nf = new Intl.NumberFormat(locale);
  const pf = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const palette = PALETTE[dark ? 'dark' : 'light'];
  const days = data.days.map((d) => d.slice(5));
  const stats: StatDef[] = [];
  const charts: ChartDef[] = [];
  const count = (id: string, title: string, n: number, hint?: string) => stats.push({ id, title, value: nf.format(n), raw: n, hint });
  const share = (id: string, title: string, s: Share, hint: string) =>
    stats.push({ id, title, value: s.share === null ? '—' : pf.format(s.share), raw: s.share, hint: t(hint, { part: nf.format(s.part), total: nf.format(s.total) }) });
  const statusChart = (id: string, title: string, def: EnumDef, fig: ByKey) => {
    const items = byEnum(def, fig.items);
    charts.push({
      id,
      title,
      horizontal: true,
      categories: items.map((x) => enumLabel(def, x.key, locale)),
      // each status in its enum colour (schemas/enums), as its tags are drawn in the lists
      series: [{ name: t('home.count'), data: items.map((x) => x.count), color: palette[0], colors: items.map((x) => statusColor(def, x.key, dark, palette[0])) }],
    });
  };

  if (f.sessions_per_day) {
    const s = f.sessions_per_day.series;
    count('sessions14', t('home.figures.sessions14'), sum(s.flatMap((x) => x.counts)));
    charts.push({
      id: 'sessionsPerDay',
      title: t('home.figures.sessionsPerDay'),
      categories: days,
      stacked: true,
      perDay: true,
      series: s.map((x, i) => ({ name: t(`home.channels.${x.key}`), data: x.counts, color: palette[i] })),
    });
  }
  if (f.ai_resolved) share('aiResolved', t('home.figures.aiResolved'), f.ai_resolved, 'home.figures.aiResolvedHint');
  if (f.feedback_by_status) {
    count('feedbackTotal', t('home.figures.feedbackTotal'), f.feedback_by_status.total);
    statusChart('feedback', t('home.figures.feedback'), FEEDBACK_STATUS, f.feedback_by_status);
  }
  if (f.test_tasks_by_status || f.rating_tasks_by_status) {
    const kinds = [
      ['testTasks', f.test_tasks_by_status],
      ['ratingTasks', f.rating_tasks_by_status],
    ].filter((k): k is [string, ByKey] => !!k[1]);
    const keys = byEnum(TASK_STATUS, [...new Map(kinds.flatMap(([, fig]) => fig.items).map((x) => [x.key, { key: x.key, count: 0 }])).values()]).map((x) => x.key);
    charts.push({
      id: 'tasks',
      title: t('home.figures.tasks'),
      horizontal: true,
      categories: keys.map((k) => enumLabel(TASK_STATUS, k, locale)),
      series: kinds.map(([name, fig], i) => ({
        name: t(`home.figures.${name}`),
        data: keys.map((k) => fig.items.find((x) => x.key === k)?.count ?? 0),
        color: palette[i],
      })),
    });
  }
  if (f.ai_cost_per_day) {
    // model calls' cost at the servers' prices per million tokens (small amounts: up to 6 decimals)
    const s = f.ai_cost_per_day.series;
    const total = Math.round(sum(s.flatMap((x) => x.counts)) * 1e6) / 1e6;
    const mf = new Intl.NumberFormat(locale, { maximumFractionDigits: 6 });
    stats.push({ id: 'aiCost14', title: t('home.figures.aiCost14'), value: mf.format(total), raw: total, hint: t('home.figures.aiCostHint') });
    charts.push({
      id: 'aiCostPerDay',
      title: t('home.figures.aiCostPerDay'),
      categories: days,
      stacked: true,
      perDay: true,
      series: s.map((x, i) => ({ name: t(`home.costKinds.${x.key}`), data: x.counts, color: palette[i] })),
    });
  }
  if (f.calls_per_day) {
    const s = f.calls_per_day.series;
    count('calls14', t('home.figures.calls14'), sum(s.flatMap((x) => x.counts)));
    charts.push({
      id: 'callsPerDay',
      title: t('home.figures.callsPerDay'),
      categories: days,
      stacked: true,
      perDay: true,
      series: s.map((x, i) => ({ name: enumLabel(CALL_RESULT, x.key, locale), data: x.counts, color: RESULT_COLORS[dark ? 'dark' : 'light'][i % 4] })),
    });
  }
  if (f.connect_rate) share('connectRate', t('home.figures.connectRate'), f.connect_rate, 'home.figures.connectRateHint');
  if (f.call_tasks_by_status) {
    count('callTasksTotal', t('home.figures.callTasksTotal'), f.call_tasks_by_status.total);
    statusChart('callTasks', t('home.figures.callTasks'), TASK_STATUS, f.call_tasks_by_status);
  }
  if (f.train_tasks_by_status) {
    count('trainTasksTotal', t('home.figures.trainTasksTotal'), f.train_tasks_by_status.total);
    statusChart('trainTasks', t('home.figures.trainTasks'), TASK_STATUS, f.train_tasks_by_status);
  }
  if (f.datasets_by_size) {
    count('datasetsTotal', t('home.figures.datasetsTotal'), f.datasets_by_size.total);
    charts.push({
      id: 'datasets',
      title: t('home.figures.datasets'),
      categories: f.datasets_by_size.items.map((x) => t(`home.sizes.${x.key}`)),
      series: [{ name: t('home.figures.datasetsTotal'), data: f.datasets_by_size.items.map((x) => x.count), color: palette[0] }],
    });
  }
  if (f.accounts) {
    const a = f.accounts;
    count('accounts', t('home.figures.accounts'), a.total, t('home.figures.accountsHint', { enabled: nf.format(a.enabled), disabled: nf.format(a.disabled) }));
  }
  if (f.roles) {
    const r = f.roles;
    count('roles', t('home.figures.roles'), r.total, t('home.figures.rolesHint', { superAdmin: nf.format(r.super_admin), unassigned: nf.format(r.unassigned) }));
  }
  if (f.audit_per_day) {
    const s = f.audit_per_day.series;
    const all = s.find((x) => x.key === 'all')?.counts ?? [];
    const refused = s.find((x) => x.key === 'refused')?.counts ?? [];
    count('audit14', t('home.figures.audit14'), sum(all), t('home.figures.auditHint', { refused: nf.format(sum(refused)) }));
    charts.push({
      id: 'auditPerDay',
      title: t('home.figures.auditPerDay'),
      categories: days,
      perDay: true,
      // every event, and the refused calls among them (not stacked: the second is part of the first)
      series: s.map((x) => ({ name: t(`home.audit.${x.key}`), data: x.counts, color: x.key === 'refused' ? RESULT_COLORS[dark ? 'dark' : 'light'][1] : palette[0] })),
    });
  }
  return { stats, charts };
}

/** The chart's accessible name: its title and its figures in words. */
export function describe(c: ChartDef, t: (key: string, vars?: Record<string, unknown>) => string, nf: Intl.NumberFormat): string {
  const items = c.perDay
    ? c.series.map((s) => `${s.name} ${nf.format(sum(s.data))}`)
    : c.series.flatMap((s) => c.categories.map((cat, i) => `${c.series.length > 1 ? `${s.name} · ` : ''}${cat} ${nf.format(s.data[i] ?? 0)}`));
  return t('home.chartSummary', { title: c.title, items: items.length ? items.join(', ') : t('home.noData') });
}
