/**
 * The menu-page walk (issues 14 and 26): /login and every menu page of every module, opened in
 * Chromium as the super admin against the real server with the demo data, each page visited once
 * and checked there for
 * - accessibility with axe-core (@axe-core/playwright, WCAG 2.1 A and AA rules) in the light and
 *   the dark theme: a serious or critical violation fails, listed with its rule, page and the
 *   first elements it hit;
 * - both languages (./language-check.ts): switched in place with the header's language menu, no
 *   Chinese outside user data in English, no English console text in Chinese;
 * - layout in both languages at 1440×900 and 1280×800 (./layout-check.ts): no console text cut,
 *   no column title broken mid-word, no column under a fixed one.
 * One visit per page does all three: the page opens in one language and theme at 1280×800;
 * every axe rule runs there, the layout check at both sizes, the header's switch flips the theme
 * and the colour rules run again at 1440×900 (structure, names and landmarks do not change with
 * the theme); then the language flips in place and the language and layout checks run again
 * (1440×900 first, so the window ends at 1280×800 for the next page: two resizes a page). The
 * next page opens in that language and theme, so the full rule set alternates between themes
 * and languages along the walk. (Until session 22 the language walk was a file of its own that
 * opened every page twice more.)
 *
 * The menu pages come from the route table the console itself is built from
 * (src/runtime/route-config.ts over the permission manifest), so a new page is checked too.
 * The walk is split over a few test files (a11y-1…n.test.ts, one shard of the pages each) so
 * the browser runner's workers share it; each file has its own server and browser.
 * Run one: npm run test:e2e -- tests/e2e/a11y-1.test.ts (A11Y_ONLY=<regex> narrows it further).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { buildRouteConfig, flattenRoutes } from '../../src/runtime/route-config.js';
import { diskPermissionTree } from '../../server/schemas/permission-tree.js';
import { settle, startHarness, visit, type Harness } from './harness.js';
import { DATA, englishLocaleStrings, switchTo, wrongLanguage } from './language-check.js';
import { layoutAtBothSizes, LAYOUT_SIZES } from './layout-check.js';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BAD = new Set(['serious', 'critical']);

/** Every visible menu page (no params, not hidden), module homes included. */
export const MENU_PAGES = flattenRoutes(buildRouteConfig(() => undefined, diskPermissionTree()))
  .filter((e) => e.path && !e.hidden && !e.path.includes(':'))
  .map((e) => e.path!)
  // A11Y_ONLY=<regex> narrows the walk while fixing (the full walk runs in CI)
  .filter((p) => !process.env.A11Y_ONLY || new RegExp(process.env.A11Y_ONLY).test(p));


interface Finding {
  page: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The rules whose outcome depends on the theme's colours: the only ones run again after a theme switch. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

async function check(page: Page, where: string, out: Finding[], colourOnly = false): Promise<void> {
  // violations only: axe skips collecting every passing and incomplete node (the same rules run).
  // Legacy mode: axe.run in the page itself. The default (runPartial in each frame, then
  // finishRun in a blank tab the builder opens) spawns a tab and parses axe twice per run, 130
  // runs a walk; the console's pages have no frames of another origin, which is what it is for.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode();
  const r = await (colourOnly ? builder.withRules(COLOUR_RULES) : builder.withTags(TAGS)).analyze();
  for (const v of r.violations) {
    if (!BAD.has(v.impact ?? '')) continue;
    const detail = (n: (typeof v.nodes)[number]) => {
      const d = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
      return d?.contrastRatio ? ` (${d.fgColor} on ${d.bgColor}: ${d.contrastRatio})` : '';
    };
    out.push({ page: where, rule: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + detail(n)) });
  }
}

const report = (found: Finding[]) =>
  found.map((f) => `${f.page}: [${f.impact}] ${f.rule} — ${f.help}\n      ${f.targets.join('\n      ')}`).join('\n');

/**
 * Shard `index` of `of`: its share of the menu pages (every `of`-th page, so each shard gets some
 * of every module), and the sign-in page in shard 0.
 */
export function a11yWalk(index: number, of: number): void {
  const pages = MENU_PAGES.filter((_, i) => i % of === index);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  describe(`menu pages: axe in both themes, both languages, layout at two sizes (pages ${index + 1}/${of})`, () => {
    let page: Page;
    before(async () => {
      page = await h.newPage();
    });
    after(async () => {
      await page.context().close();
    });

    const setDark = (dark: boolean) =>
      page.evaluate((d) => {
        const saved = JSON.parse(localStorage.getItem('settings') ?? '{}');
        localStorage.setItem('settings', JSON.stringify({ ...saved, dark: d }));
      }, dark);

    it('the sign-in page has no serious or critical violation in either theme', { skip: index !== 0 }, async () => {
      const found: Finding[] = [];
      for (const dark of [false, true]) {
        await page.goto('/login');
        await setDark(dark);
        await page.reload();
        await settle(page);
        await check(page, `/login (${dark ? 'dark' : 'light'})`, found);
        // one main landmark (axe rates its absence moderate; Lighthouse flagged it on /login)
        assert.equal(await page.locator('main').count(), 1, 'one <main> on /login');
      }
      assert.equal(found.length, 0, report(found));
    });

    /** the language and layout findings of the walk, asserted in the cases after it */
    const language: string[] = [];
    const layout: string[] = [];
    let lines = 0;

    it(`every menu page of this shard (${pages.length} of ${MENU_PAGES.length}) has no serious or critical violation in either theme`, async () => {
      await h.signIn(page, h.admin);
      const english = englishLocaleStrings();
      const found: Finding[] = [];
      let dark = (await page.getByTestId('dark-switch').getAttribute('aria-checked')) === 'true';
      let locale: 'zh-CN' | 'en-US' = 'zh-CN';
      // the language and layout checks of the page as it is drawn now
      const inThisLanguage = async (path: string) => {
        const r = await wrongLanguage(page, locale, english);
        lines += r.lines;
        language.push(...r.found.map((line) => `${path} (${locale}): ${line}`));
        layout.push(...(await layoutAtBothSizes(page, `${path} (${locale})`, DATA)));
      };
      // each page opens at 1280×800 (where the last one left off): every axe rule there, the
      // layout there and at 1440×900, the colour rules at 1440×900 in the other theme, then the
      // other language at 1440×900 and 1280×800 — two resizes a page (each a relayout of the
      // whole page) where the walk used to make four, the same checks at the same sizes
      await page.setViewportSize(LAYOUT_SIZES[1]);
      for (const path of pages) {
        await visit(page, path);
        await check(page, `${path} (${dark ? 'dark' : 'light'}, ${locale})`, found);
        await inThisLanguage(path);
        await page.getByTestId('dark-switch').click();
        dark = !dark;
        await page.waitForFunction((d) => document.documentElement.dataset.theme === (d ? 'dark' : 'light'), dark);
        if (page.viewportSize()?.width !== LAYOUT_SIZES[0].width) await page.setViewportSize(LAYOUT_SIZES[0]);
        await page.waitForTimeout(300); // antd's colour transitions
        await check(page, `${path} (${dark ? 'dark' : 'light'}, ${locale})`, found, true);
        locale = locale === 'zh-CN' ? 'en-US' : 'zh-CN';
        await switchTo(page, locale);
        await settle(page);
        await inThisLanguage(path);
      }
      assert.equal(found.length, 0, `${found.length} violations:\n${report(found)}`);
    });

    it('both languages: no Chinese outside user data in English, no English console text in Chinese, on every page of this shard', () => {
      assert.ok(lines > pages.length * 10, `the pages showed their own text (${lines} lines)`);
      assert.equal(language.length, 0, [...new Set(language)].join('\n'));
    });

    it('no console text cut, no column title broken mid-word, no column under a fixed one: both languages, 1440×900 and 1280×800', () => {
      assert.equal(layout.length, 0, `${layout.length} layout problems:\n${layout.join('\n')}`);
    });
  });
}
