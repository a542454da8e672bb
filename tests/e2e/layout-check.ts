/**
 * The layout check of the language walk (issue 26): on a page as it is drawn, the console's own
 * text is never cut, no word of a column title is broken in the middle, and no column sits under
 * a fixed column. User data (table body cells, descriptions' values, …: the walk's DATA selectors)
 * may be cut with an ellipsis on purpose: antd shows it whole in a tooltip.
 *
 * - **cut**: an element of the console's own text whose content is wider than its box (an
 *   ellipsis, or clipped by `overflow: hidden`), e.g. the brand or a menu label;
 * - **broken word**: a Latin word of a table header cell drawn on two lines ("accurac/y");
 * - **under a fixed column**: with the table scrolled to its right end, a column's header cell
 *   overlaps a right-fixed one (and to its left end, a left-fixed one) — a column that can never be
 *   read whole.
 * Written as a string (tsx would wrap an inner function in a helper the page lacks), run with
 * `page.evaluate`. Each finding names the element by its text.
 */
import type { Page } from 'playwright-core';

const LAYOUT = `(dataSelectors) => {
  const out = [];
  const seen = new Set();
  const visible = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const isData = (el) => dataSelectors.some((sel) => el.closest(sel));
  const label = (el) => (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
  const say = (what, el) => {
    const key = what + ' ' + label(el);
    if (!seen.has(key)) { seen.add(key); out.push(key); }
  };
  // 1. console text cut: leaf-ish elements with their own text, wider than their box
  const candidates = document.querySelectorAll('header *, .ant-layout-sider *, .ant-menu-title-content, .ant-table-thead th, .ant-btn > span, .ant-tabs-tab-btn, .ant-form-item-label > label, .ant-card-head-title, .ant-page-header-heading-title, .ant-breadcrumb *');
  for (const el of candidates) {
    if (!(el instanceof HTMLElement) || !visible(el) || isData(el)) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent || '').trim());
    if (!own) continue;
    const cs = getComputedStyle(el);
    const clips = cs.textOverflow === 'ellipsis' || cs.overflow === 'hidden' || cs.overflowX === 'hidden';
    if (clips && el.scrollWidth > el.clientWidth + 1) say('cut:', el);
  }
  // 2. a Latin word of a column title on two lines
  for (const th of document.querySelectorAll('.ant-table-thead th')) {
    if (!visible(th)) continue;
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent || '';
      for (const m of text.matchAll(/[A-Za-z]{3,}/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
        if (tops.size > 1) say('broken word "' + m[0] + '" in column', th);
      }
    }
  }
  // 3. a column under a fixed one, scrolled to each end
  for (const table of document.querySelectorAll('.ant-table')) {
    if (!visible(table)) continue;
    const scroller = table.querySelector('.ant-table-content, .ant-table-header');
    const body = table.querySelector('.ant-table-body');
    const ths = [...table.querySelectorAll('.ant-table-thead th')].filter((th) => visible(th) && th.getBoundingClientRect().width > 0);
    const right = ths.filter((th) => th.classList.contains('ant-table-cell-fix-right'));
    const left = ths.filter((th) => th.classList.contains('ant-table-cell-fix-left'));
    const free = ths.filter((th) => !right.includes(th) && !left.includes(th) && !th.classList.contains('ant-table-selection-column') && !th.classList.contains('ant-table-cell-scrollbar'));
    const scrollTo = (x) => { for (const s of [scroller, body]) if (s) s.scrollLeft = x; };
    const overlaps = (a, b) => { const ra = a.getBoundingClientRect(); const rb = b.getBoundingClientRect(); return Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 2; };
    const before = scroller ? scroller.scrollLeft : 0;
    if (right.length) {
      scrollTo(1e6);
      for (const th of free) if (right.some((f) => overlaps(th, f))) say('under the fixed action column:', th);
    }
    if (left.length) {
      scrollTo(0);
      for (const th of free) if (left.some((f) => overlaps(th, f))) say('under a left-fixed column:', th);
    }
    scrollTo(before);
  }
  return out;
}`;

/** Layout findings on the page as drawn now (empty when it is clean). */
export const layoutProblems = (page: Page, dataSelectors: string[]): Promise<string[]> =>
  page.evaluate(`(${LAYOUT})(${JSON.stringify(dataSelectors)})`);

/** The two window sizes the walk checks every page at (issue 26). */
export const LAYOUT_SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
] as const;

/**
 * Both sizes, one after the other, starting with the size the window has now when it is one of
 * them (so a walk that alternates pays one resize, a relayout of the whole page, per call instead
 * of two): every finding prefixed with the page and the size.
 */
export async function layoutAtBothSizes(page: Page, where: string, dataSelectors: string[]): Promise<string[]> {
  const found: string[] = [];
  const now = page.viewportSize();
  const sizes = now?.width === LAYOUT_SIZES[1].width && now.height === LAYOUT_SIZES[1].height ? [LAYOUT_SIZES[1], LAYOUT_SIZES[0]] : LAYOUT_SIZES;
  for (const size of sizes) {
    const current = page.viewportSize();
    if (current?.width !== size.width || current.height !== size.height) {
      await page.setViewportSize(size);
      // a frame for antd's table to measure its columns again at the new width
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    for (const p of await layoutProblems(page, dataSelectors)) found.push(`${where} @${size.width}×${size.height}: ${p}`);
  }
  return found;
}
