import type { BrowserContext } from 'playwright-core';
import { failed, ratioOf, type Figure, type Goal, type Suite, type SuiteContext } from '../lib/result.js';
import { median, quantile, round } from '../lib/stats.js';
import { appServer, signIn } from './app-server.js';
import { LIST_ROUTE } from './bundle.bench.js';
import { menuListPages, type ListPage } from './list-pages.js';
import { measureMenuClicks } from './menu-click.js';

export { menuListPages, type ListPage };

/**
 * Navigation to rows ("speed a person feels", issue 14): every list page of the menu — a
 * manifest page, not hidden, whose schema is of kind `list` — opened in a signed-in browser
 * against the real server on the bench data, timed from navigation start to the moment its
 * table shows rows (or, for a list with no rows, its settled empty table). The shop list
 * measured in the same run is the baseline: goal, every list page ≤ 1.2 × the shop list.
 *
 * Each sample is a page load in the same signed-in context (warm HTTP cache and schema cache,
 * as a person moving through the menu has), the pages taken in turn round after round so a
 * passing load on the machine spreads over all of them. `--smoke`: the shop list and two
 * other pages once, the goal not judged.
 */
export const NAV_GOAL_RATIO = 1.2;

/**
 * Installed before any page script: notes (performance.now(), i.e. ms since navigation start)
 * when a table first has a data row, and when it last settled empty (no spinner, the empty
 * placeholder shown).
 */
const WATCH_ROWS = `
  window.__nav = { rowsAt: null, emptyAt: null };
  (function () {
    var check = function () {
      var n = window.__nav;
      if (n.rowsAt !== null) return;
      if (document.querySelector('.ant-table-tbody .ant-table-row')) { n.rowsAt = performance.now(); return; }
      var wrap = document.querySelector('.ant-table-wrapper');
      if (wrap && !document.querySelector('.ant-spin-spinning') && wrap.querySelector('.ant-table-placeholder .ant-empty')) {
        if (n.emptyAt === null) n.emptyAt = performance.now();
      } else n.emptyAt = null;
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  })();`;

interface Sample {
  ms: number | null;
  empty?: boolean;
  error?: string;
}

async function measureOnce(context: BrowserContext, url: string): Promise<Sample> {
  const page = await context.newPage();
  try {
    await page.goto(url);
    try {
      await page.waitForFunction(() => (window as unknown as { __nav: { rowsAt: number | null } }).__nav.rowsAt !== null, null, { timeout: 8_000 });
    } catch {
      // no row yet: a list may be empty — wait for the network to settle, then take the empty table
      await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
    }
    const nav = (await page.evaluate(() => (window as unknown as { __nav: { rowsAt: number | null; emptyAt: number | null } }).__nav)) as {
      rowsAt: number | null;
      emptyAt: number | null;
    };
    const landed = new URL(page.url()).pathname;
    if (landed !== new URL(url).pathname) return { ms: null, error: `landed on ${landed}` };
    if (nav.rowsAt !== null) return { ms: nav.rowsAt };
    if (nav.emptyAt !== null) return { ms: nav.emptyAt, empty: true };
    return { ms: null, error: 'no table rows and no empty table' };
  } catch (err) {
    return { ms: null, error: err instanceof Error ? err.message.split('\n')[0] : String(err) };
  } finally {
    await page.close();
  }
}

export const navigationSuite: Suite = {
  id: 'nav',
  title: 'Navigation to rows, every list page of the menu (real server, signed in, Chromium)',
  async run(ctx: SuiteContext): Promise<Figure[]> {
    const all = menuListPages(ctx.root);
    const shop = all.find((p) => p.path === LIST_ROUTE);
    const goal: Goal = { op: '<=', value: NAV_GOAL_RATIO, on: 'ratio', when: 'full run', applies: !ctx.smoke };
    if (!shop) return [failed('nav.list.worst', 'slowest list page', 'ms', `${LIST_ROUTE} is not a list page of the menu`, goal)];
    const pages = ctx.smoke ? [shop, ...all.filter((p) => p !== shop).slice(0, 2)] : all;
    const rounds = ctx.smoke ? 1 : Math.max(3, Math.min(ctx.runs, 5));
    const { origin, browser, data } = await appServer(ctx);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    await context.addInitScript({ content: WATCH_ROWS });
    const samples = new Map<string, Sample[]>(pages.map((p) => [p.path, []]));
    const clicks: Figure[] = [];
    try {
      const first = await context.newPage();
      await first.goto(`${origin}/login`);
      await signIn(first, { email: data.adminEmail, password: data.adminPassword });
      await first.close();
      // in-app navigation (menu-click.ts): one tab, a first visit and revisits of every page
      if (ctx.wants('nav.click')) clicks.push(...(await measureMenuClicks(ctx, context, origin, shop, pages, ctx.smoke ? 2 : rounds + 1)));
      if (!ctx.wants('nav.list')) return clicks;
      // one load of the shop list first, not counted: the shared chunks and the session's lookups are then cached
      await measureOnce(context, `${origin}${shop.path}`);
      ctx.log(`nav: ${pages.length} list pages × ${rounds} rounds`);
      for (let r = 0; r < rounds; r++) {
        for (const p of pages) samples.get(p.path)!.push(await measureOnce(context, `${origin}${p.path}`));
      }
    } finally {
      await context.close();
    }
    const rows = pages.map((p) => {
      const s = samples.get(p.path)!;
      const ok = s.map((x) => x.ms).filter((x): x is number => x !== null);
      return {
        path: p.path,
        title: p.title,
        schema: p.schema,
        ms: round(median(ok), 0),
        samples: s.map((x) => (x.ms === null ? null : Math.round(x.ms))),
        empty: s.some((x) => x.empty),
        errors: s.filter((x) => x.error).map((x) => x.error),
      };
    });
    const base = rows.find((r) => r.path === shop.path)!.ms;
    const measured = rows.filter((r) => r.ms !== null) as Array<(typeof rows)[number] & { ms: number }>;
    const broken = rows.filter((r) => r.ms === null);
    const slowest = [...measured].sort((a, b) => b.ms - a.ms).slice(0, 3);
    const withRatio = rows.map((r) => ({ ...r, ratio: ratioOf(r.ms, base) }));
    const over = withRatio.filter((r) => r.ratio !== null && r.ratio > NAV_GOAL_RATIO);
    ctx.facts.navigation = { pages: pages.length, rounds, shopListMs: base, over: over.map((r) => `${r.path} ${r.ratio}`) };
    const p50 = round(quantile(measured.map((r) => r.ms), 0.5), 0);
    const describe = (r: (typeof slowest)[number]) => `${r.path} ${r.ms} ms (${ratioOf(r.ms, base)}×)`;
    const brokenNote = broken.length ? `; not measured: ${broken.map((r) => `${r.path} (${r.errors[0] ?? 'no value'})`).join(', ')}` : '';
    const baselineLabel = `the shop list (${LIST_ROUTE}) in the same run`;
    const figures: Figure[] = [
      {
        id: 'nav.list.p50',
        label: `navigation → rows, median over ${measured.length} list pages (each page's median of ${rounds})`,
        unit: 'ms',
        value: p50,
        baseline: base,
        baselineLabel,
        ratio: ratioOf(p50, base),
        detail: { pages: withRatio },
      },
      {
        id: 'nav.list.worst',
        label: 'navigation → rows, the slowest list page',
        unit: 'ms',
        value: slowest[0]?.ms ?? null,
        baseline: base,
        baselineLabel,
        ratio: ratioOf(slowest[0]?.ms, base),
        goal,
        note: `slowest three: ${slowest.map(describe).join('; ')}${over.length ? `; over ${NAV_GOAL_RATIO}×: ${over.length}` : ''}${brokenNote}`,
        detail: { slowest, over },
      },
    ];
    if (broken.length) figures.push(failed('nav.list.all', 'every list page reached its rows', 'x', brokenNote.slice(2)));
    return [...figures, ...clicks];
  },
};
