/**
 * Module homes with live figures (issue 14): the voice home, opened in Chromium as the super
 * admin against the real server with the demo data, shows the same numbers `GET home/stats`
 * answers for the browser's time zone, draws every chart (ECharts, an <svg>) with an accessible
 * name, in Chinese and in English (enum labels in the chart), and has no serious or critical axe
 * violation in the light or the dark theme. The demo operator (intelligent_text keys only) sees
 * on the text home only the figures of the pages it holds.
 * Run: npm run build && node --import tsx --test tests/e2e/module-home.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from './harness.js';

const TZ = 'Asia/Shanghai';
let h: Harness;

before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

/** a page in a browser whose clock runs in TZ, in a given console language */
async function pageIn(locale: 'zh-CN' | 'en-US'): Promise<Page> {
  const ctx = await h.browser.newContext({ baseURL: h.baseUrl, viewport: { width: 1366, height: 900 }, locale: 'zh-CN', timezoneId: TZ, reducedMotion: 'reduce' });
  ctx.setDefaultNavigationTimeout(90_000); // as the harness's pages (tests/e2e/harness.ts)
  ctx.setDefaultTimeout(45_000);
  const page = await ctx.newPage();
  if (locale === 'en-US') {
    await page.goto('/login');
    await page.evaluate(() => {
      const saved = JSON.parse(localStorage.getItem('settings') ?? '{}');
      localStorage.setItem('settings', JSON.stringify({ ...saved, locale: 'en-US' }));
    });
  }
  return page;
}

/** `GET home/stats` as the page's session (the console's own headers) */
async function apiStats(page: Page, module: string, tz: string) {
  return page.evaluate(
    async ([m, z]) => {
      const sid = /(?:^|;\s*)sid=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const r = await fetch(`/api/admin/home/stats?module=${m}&tz=${encodeURIComponent(z)}`, { headers: { 'admin-token': decodeURIComponent(sid) } });
      return (await r.json()) as { code: number; data: { tz: string; days: string[]; figures: Record<string, any> } };
    },
    [module, tz] as const,
  );
}

const total = (series: Array<{ counts: number[] }>) => series.flatMap((s) => s.counts).reduce((a, b) => a + b, 0);

async function openVoiceHome(page: Page) {
  await page.goto('/intelligent_voice/home');
  const figures = page.getByTestId('home-figures');
  await figures.waitFor({ timeout: 20_000 });
  // every chart drawn: an svg inside each chart's image
  await page.locator('[data-testid^="home-chart-"] svg').nth(1).waitFor({ timeout: 20_000 });
  return figures;
}

describe('module home figures', () => {
  for (const locale of ['zh-CN', 'en-US'] as const) {
    it(`the voice home's figures equal the API's counts and its charts draw (${locale})`, async () => {
      const page = await pageIn(locale);
      await h.signIn(page, h.admin);
      const figures = await openVoiceHome(page);
      assert.equal(await figures.getAttribute('data-tz'), TZ, 'the browser time zone is sent');

      const api = await apiStats(page, 'intelligent_voice', TZ);
      assert.equal(api.code, 10000);
      const f = api.data.figures;
      const value = async (id: string) => page.getByTestId(`home-stat-${id}`).getAttribute('data-value');
      assert.equal(Number(await value('calls14')), total(f.calls_per_day.series));
      assert.equal(await value('connectRate'), f.connect_rate.share === null ? '' : String(f.connect_rate.share));
      assert.equal(Number(await value('callTasksTotal')), f.call_tasks_by_status.total);
      assert.ok(f.call_tasks_by_status.total > 0, 'the demo data has call tasks');
      // the number is shown as the locale writes it
      const shown = await page.getByTestId('home-stat-callTasksTotal').locator('.ant-statistic-content').innerText();
      assert.equal(shown.trim(), new Intl.NumberFormat(locale).format(f.call_tasks_by_status.total));

      // two charts, each an svg with an accessible name naming its figures
      const charts = page.locator('[data-testid^="home-chart-"]');
      assert.equal(await charts.count(), 2);
      for (const id of ['callsPerDay', 'callTasks']) {
        const chart = page.getByTestId(`home-chart-${id}`);
        assert.equal(await chart.getAttribute('role'), 'img');
        assert.ok(((await chart.getAttribute('aria-label')) ?? '').length > 10);
        assert.equal(await chart.locator('svg').count(), 1, `${id} draws an svg`);
      }
      // the per-day chart's legend and name carry the enum's labels in the page's language
      const success = locale === 'zh-CN' ? '成功' : 'Success';
      assert.match((await page.getByTestId('home-chart-callsPerDay').getAttribute('aria-label')) ?? '', new RegExp(success));
      assert.ok(await page.getByTestId('home-chart-callsPerDay').locator('svg text', { hasText: success }).count() > 0, 'legend label');
      const text = await figures.innerText();
      assert.match(text, locale === 'zh-CN' ? /关键指标/ : /Key figures/);
      assert.doesNotMatch(text, /home\.|figures\./, 'no untranslated key');
      await h.shot(page, `module-home-voice-${locale}`);
      await page.context().close();
    });
  }

  it("the text home shows the model cost of the last 14 days and a chart of it per day, as the API sums it", async () => {
    const page = await pageIn('en-US');
    await h.signIn(page, h.admin);
    await page.goto('/intelligent_text/home');
    await page.getByTestId('home-figures').waitFor({ timeout: 20_000 });
    const api = await apiStats(page, 'intelligent_text', TZ);
    assert.equal(api.code, 10000);
    const sum = Math.round(total(api.data.figures.ai_cost_per_day.series) * 1e6) / 1e6;
    const stat = page.getByTestId('home-stat-aiCost14');
    await stat.waitFor();
    assert.equal(Number(await stat.getAttribute('data-value')), sum);
    assert.match(await stat.innerText(), /Model cost \(14 days\)/);
    const chart = page.getByTestId('home-chart-aiCostPerDay');
    await chart.locator('svg').waitFor({ timeout: 20_000 });
    assert.match((await chart.getAttribute('aria-label')) ?? '', /Model cost per day/);
    await h.shot(page, 'module-home-text-cost');
    await page.context().close();
  });

  it('a home shows only the figures of the pages the account holds (demo operator, text home)', async () => {
    const page = await pageIn('zh-CN');
    await h.signIn(page, h.operator);
    await page.goto('/intelligent_text/home');
    await page.getByTestId('module-home-intelligent_text').waitFor();
    const api = await apiStats(page, 'intelligent_text', TZ);
    assert.equal(api.code, 10000);
    const keys = Object.keys(api.data.figures);
    if (keys.length === 0) {
      await page.waitForTimeout(500);
      assert.equal(await page.getByTestId('home-figures').count(), 0, 'no figures section without figures');
    } else {
      await page.getByTestId('home-figures').waitFor();
      assert.ok(keys.length < 5, `the operator holds some text keys only: ${keys.join(', ')}`);
      // a figure not in the reply is not drawn
      if (!keys.includes('ai_resolved')) assert.equal(await page.getByTestId('home-stat-aiResolved').count(), 0);
      if (!keys.includes('sessions_per_day')) assert.equal(await page.getByTestId('home-chart-sessionsPerDay').count(), 0);
    }
    await page.context().close();
  });

  it('has no serious or critical axe violation in the light and the dark theme', async () => {
    const page = await pageIn('zh-CN');
    await h.signIn(page, h.admin);
    const found: string[] = [];
    for (const dark of [false, true]) {
      await page.evaluate((d) => {
        const saved = JSON.parse(localStorage.getItem('settings') ?? '{}');
        localStorage.setItem('settings', JSON.stringify({ ...saved, dark: d }));
      }, dark);
      for (const path of ['/intelligent_voice/home', '/admin_center/home']) {
        await page.goto(path);
        await page.getByTestId('home-figures').waitFor({ timeout: 20_000 });
        await page.locator('[data-testid^="home-chart-"] svg').first().waitFor({ timeout: 20_000 });
        await page.waitForTimeout(300);
        const r = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode().withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze(); // as tests/e2e/a11y-walk.ts
        for (const v of r.violations) {
          if (v.impact === 'serious' || v.impact === 'critical') {
            found.push(`${path} (${dark ? 'dark' : 'light'}): [${v.impact}] ${v.id} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
          }
        }
        if (dark) await h.shot(page, `module-home-dark${path.replace(/\//g, '-')}`);
      }
    }
    assert.deepEqual(found, []);
    await page.context().close();
  });
});
