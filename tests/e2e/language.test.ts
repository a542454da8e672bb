/**
 * Both languages everywhere (issue 14): signed in as the super admin, the console is switched to
 * English with the header's language menu (no reload) and every menu page of every module is
 * opened: no Chinese may show outside user data. Then back to Chinese, and every page again: no
 * English text of the console's own English locale may show. User data is what the server
 * returned: table body cells, descriptions' values, inputs' values, the session and transcript
 * panes, the picked shop names in selects.
 *
 * On each page of both walks the layout check (./layout-check.ts) runs at 1440×900 and 1280×800:
 * no console text cut, no column title broken mid-word, no column under a fixed one.
 * The menu pages come from the route table the console is built from (like tests/e2e/a11y-walk.ts).
 * Run: node --import tsx --test tests/e2e/language.test.ts
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { buildRouteConfig, flattenRoutes } from '../../src/runtime/route-config.js';
import { diskPermissionTree } from '../../server/schemas/permission-tree.js';
import { ROOT, settle, startHarness, visit, type Harness } from './harness.js';
import { layoutAtBothSizes } from './layout-check.js';

const MENU_PAGES = flattenRoutes(buildRouteConfig(() => undefined, diskPermissionTree()))
  .filter((e) => e.path && !e.hidden && !e.path.includes(':'))
  .map((e) => e.path!)
  .filter((p) => !process.env.LANG_ONLY || new RegExp(process.env.LANG_ONLY).test(p));

/** Where user data lives on a page: text inside these is not the console's own. */
const DATA = [
  '.ant-table-tbody',
  '.ant-descriptions-item-content',
  '.ant-select-selection-item',
  '.ant-select-selection-overflow',
  '.ant-list-items',
  '[data-testid="session-pane"]',
  '[data-testid="session-list"]',
  '[data-testid="user-menu"]',
  '[data-user-data]',
  'input',
  'textarea',
  'pre',
  // each language's own name stays in that language in the switch
  '[data-testid^="lang-"]',
  '.ant-empty-description',
];

/** Every English string of the console's locale files longer than a word (to spot them in the Chinese UI). */
function englishLocaleStrings(): Set<string> {
  const dir = path.join(ROOT, 'src/locales/en-US');
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      // short or technical strings (IDs, "URL", "API", units) read the same in both locales
      if (v.length >= 6 && /[a-z]{3}/.test(v) && /\s/.test(v) && !v.includes('{{')) out.add(v.trim());
    } else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const f of readdirSync(dir)) if (f.endsWith('.json')) walk(JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
  // strings the Chinese locale keeps in English on purpose (brand and protocol names)
  const zhDir = path.join(ROOT, 'src/locales/zh-CN');
  const zhValues = new Set<string>();
  const walkZh = (v: unknown) => {
    if (typeof v === 'string') zhValues.add(v.trim());
    else if (v && typeof v === 'object') Object.values(v).forEach(walkZh);
  };
  for (const f of readdirSync(zhDir)) if (f.endsWith('.json')) walkZh(JSON.parse(readFileSync(path.join(zhDir, f), 'utf8')));
  for (const s of zhValues) out.delete(s);
  return out;
}

/**
 * The console's own visible text (user data left out): each shown text node, and placeholders and
 * names. (A string, not a function: tsx would wrap inner functions in a helper the page lacks.)
 */
const CHROME_TEXT = `(dataSelectors) => {
  const skip = (el) => !el || !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) || dataSelectors.some((sel) => el.closest(sel));
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = (n.textContent || '').trim();
    if (text && !skip(n.parentElement)) out.push(text);
  }
  document.querySelectorAll('[placeholder], [aria-label]').forEach((el) => {
    if (skip(el)) return;
    for (const a of ['placeholder', 'aria-label']) {
      const v = el.getAttribute(a);
      if (v) out.push(v);
    }
  });
  return out;
}`;

const chromeText = (page: Page): Promise<string[]> => page.evaluate(`(${CHROME_TEXT})(${JSON.stringify(DATA)})`);

async function switchTo(page: Page, locale: 'en-US' | 'zh-CN'): Promise<void> {
  await page.getByTestId('lang-switch').click();
  await page.getByTestId(`lang-${locale}`).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, locale);
}

let h: Harness;
let page: Page;
before(async () => {
  h = await startHarness();
  page = await h.newPage();
  await h.signIn(page, h.admin);
});
after(async () => {
  await page?.context().close();
  await h?.close();
});

const HAN = /\p{Script=Han}/u;
/** the layout check's findings of both walks (./layout-check.ts), asserted after them */
const layout: string[] = [];

describe('both languages on every menu page', () => {
  it(`English: no Chinese outside user data on ${MENU_PAGES.length} pages`, async () => {
    await page.goto(MENU_PAGES[0]);
    await settle(page);
    await switchTo(page, 'en-US');
    const found: string[] = [];
    let lines = 0;
    for (const p of MENU_PAGES) {
      await visit(page, p);
      const text = await chromeText(page);
      lines += text.length;
      for (const line of text) if (HAN.test(line)) found.push(`${p}: ${line.slice(0, 80)}`);
      layout.push(...(await layoutAtBothSizes(page, `${p} (en-US)`, DATA)));
    }
    assert.ok(lines > MENU_PAGES.length * 5, `the pages showed their own text (${lines} lines)`);
    assert.equal(found.length, 0, [...new Set(found)].join('\n'));
  });

  it(`Chinese: no English console text on ${MENU_PAGES.length} pages`, async () => {
    const english = englishLocaleStrings();
    await switchTo(page, 'zh-CN');
    const found: string[] = [];
    for (const p of MENU_PAGES) {
      await visit(page, p);
      for (const line of await chromeText(page)) if (english.has(line)) found.push(`${p}: ${line.slice(0, 80)}`);
      layout.push(...(await layoutAtBothSizes(page, `${p} (zh-CN)`, DATA)));
    }
    assert.equal(found.length, 0, [...new Set(found)].join('\n'));
  });

  it('no console text cut, no column title broken mid-word, no column under a fixed one: every menu page, both languages, 1440×900 and 1280×800', () => {
    assert.ok(layout.length === 0, `${layout.length} layout problems:\n${layout.join('\n')}`);
  });
});
