import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/**
 * Installed before any page script: a minimal React DevTools hook that counts React commits,
 * so a figure can say how many renders it took to get the rows on screen.
 */
// a string, not a function: tsx's name helpers would not exist inside the page
const COUNT_COMMITS = `
  window.__benchCommits = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, isDisabled: false, renderers: new Map(),
    inject: function () { return 1; },
    onCommitFiberRoot: function () { window.__benchCommits++; },
    onCommitFiberUnmount: function () {}, onPostCommitFiberRoot: function () {}, checkDCE: function () {},
  };`;

export interface PageResult {
  /** React commits from page start until the rows were in the DOM */
  commits?: number;
  render?: number;
  navigation?: number;
  painted?: number;
  count?: number;
  error?: string;
  keys?: number[];
  /**
   * main-thread CPU of the page until its rows were in (Chromium's TaskDuration in thread ticks,
   * read right after: HTML, script compile and run, style, layout) — unlike the wall clock,
   * barely moved by other processes on a loaded machine
   */
  cpu?: number;
  /** the script part of `cpu` (ScriptDuration, thread ticks) */
  script?: number;
}

/**
 * One measured page load in a fresh browser context (no shared cache between runs): open,
 * wait until the page's own marks say the rows are there, optionally type `keys` into the
 * first matching input and collect keystroke-to-next-frame latencies.
 */
export async function measurePage(
  browser: Browser,
  url: string,
  opts: { keys?: { selector: string; count: number }; timeoutMs?: number } = {},
): Promise<PageResult> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  await context.addInitScript({ content: COUNT_COMMITS });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    await page.goto(url);
    await page.waitForFunction(() => window.__bench?.done === true, null, { timeout: opts.timeoutMs ?? 60_000 });
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
    const metric = (name: string) => metrics.find((m) => m.name === name)?.value;
    const result = (await page.evaluate(() => window.__bench)) as PageResult;
    if (result.error) return result;
    const task = metric('TaskDuration');
    const script = metric('ScriptDuration');
    if (task !== undefined) result.cpu = task * 1000;
    if (script !== undefined) result.script = script * 1000;
    if (opts.keys) result.keys = await typeKeys(page, opts.keys.selector, opts.keys.count);
    return result;
  } catch (err) {
    return { error: `${err instanceof Error ? err.message : String(err)}${errors.length ? `\npage errors: ${errors.join('\n')}` : ''}` };
  } finally {
    await context.close();
  }
}

async function typeKeys(page: Page, selector: string, count: number): Promise<number[]> {
  await page.locator(selector).first().click();
  await page.waitForTimeout(200);
  await page.evaluate(() => window.__benchKeys!.start());
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i < count; i++) {
    await page.keyboard.press(letters[i % letters.length]);
    await page.waitForFunction((n) => window.__benchKeys!.results.length >= n, i + 1, { timeout: 10_000 });
    await page.waitForTimeout(30);
  }
  return (await page.evaluate(() => window.__benchKeys!.results.slice())) as number[];
}
