/**
 * Both languages everywhere (issue 14), checked page by page inside the menu-page walk
 * (./a11y-walk.ts): the console's own visible text — user data left out — holds no Chinese in
 * English and none of the English locale's strings in Chinese. User data is what the server
 * returned: table body cells, descriptions' values, inputs' values, the session and transcript
 * panes, the picked shop names in selects.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './harness.js';

/** Where user data lives on a page: text inside these is not the console's own. */
export const DATA = [
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
export function englishLocaleStrings(): Set<string> {
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

export const chromeText = (page: Page): Promise<string[]> => page.evaluate(`(${CHROME_TEXT})(${JSON.stringify(DATA)})`);

export async function switchTo(page: Page, locale: 'en-US' | 'zh-CN'): Promise<void> {
  await page.getByTestId('lang-switch').click();
  await page.getByTestId(`lang-${locale}`).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, locale);
}

const HAN = /\p{Script=Han}/u;

/**
 * The console text on the page that is in the wrong language for `locale`: Chinese in English,
 * English locale strings in Chinese (`english`: englishLocaleStrings()). `lines` counts what was
 * read, so a walk can show that the pages showed text at all.
 */
export async function wrongLanguage(page: Page, locale: 'en-US' | 'zh-CN', english: Set<string>): Promise<{ found: string[]; lines: number }> {
  const text = await chromeText(page);
  const found = text.filter((line) => (locale === 'en-US' ? HAN.test(line) : english.has(line))).map((line) => line.slice(0, 80));
  return { found, lines: text.length };
}
