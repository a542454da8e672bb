/**
 * Where a menu click's time goes (issue 23): `npx tsx bench/console/menu-click-profile.ts [path]`
 * starts the app on the bench data as the nav suite does, signs in, opens the shop list, visits
 * `path` (default the script-task list) and comes back once, then profiles one more router push
 * to `path` — a revisit, its rows in the data layer's cache — under the V8 sampler and prints the
 * main thread's CPU for it (thread ticks), the requests it made and the functions with the most
 * self time. Writes bench/results/profiles/menu-click.cpuprofile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SuiteContext } from '../lib/result.js';
import { appServer, closeAppServer, signIn } from './app-server.js';
import { LIST_ROUTE } from './bundle.bench.js';
import { menuListPages } from './navigation.bench.js';
import { summarise, type CpuProfile } from './profile.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const PUSH = `({ path, id }) => new Promise((resolve) => {
  const t0 = performance.now();
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate', { state: null }));
  const seen = () => document.querySelector('[data-testid="list-' + id + '"] .ant-table-row');
  const wait = () => (seen() ? resolve(performance.now() - t0) : setTimeout(wait, 5));
  setTimeout(wait, 0);
})`;

async function main() {
  const target = process.argv[2] ?? '/intelligent_text/scriptManage/taskList';
  const from = process.argv[3] ?? LIST_ROUTE;
  const ctx: SuiteContext = {
    smoke: true,
    only: [],
    skipPeer: true,
    runs: 1,
    profile: true,
    root,
    facts: {},
    log: (m) => console.log(`[profile] ${m}`),
    wants: () => true,
  };
  const { origin, browser, data } = await appServer(ctx);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/login`);
    await signIn(page, { email: data.adminEmail, password: data.adminPassword });
    await page.goto(`${origin}${from}`);
    await page.waitForSelector('.ant-table-tbody .ant-table-row', { timeout: 30_000 });
    const ids = new Map(menuListPages(root).map((p) => [p.path, p.schema]));
    const push = (p: string) => page.evaluate(`(${PUSH})(${JSON.stringify({ path: p, id: ids.get(p) })})`) as Promise<number>;
    for (let i = 0; i < 2; i++) {
      await push(target);
      await page.waitForTimeout(300);
      await push(from);
      await page.waitForTimeout(300);
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const before = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const ms = await push(target);
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    const after = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
    const delta = (name: string) =>
      Math.round(((after.metrics.find((m) => m.name === name)?.value ?? 0) - (before.metrics.find((m) => m.name === name)?.value ?? 0)) * 1000);
    const out = path.join(root, 'bench/results/profiles');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'menu-click.cpuprofile'), JSON.stringify(profile));
    const s = summarise(profile);
    console.log(`push → rows ${Math.round(ms)} ms wall; main thread: task ${delta('TaskDuration')} ms, script ${delta('ScriptDuration')} ms, style ${delta('RecalcStyleDuration')} ms, layout ${delta('LayoutDuration')} ms (thread ticks)`);
    console.log('by file: ' + s.byFile.map((f) => `${f.where} ${f.selfMs}`).join(', '));
    for (const t of s.top.slice(0, 25)) console.log(`${String(t.selfMs).padStart(8)} ms  ${t.fn}  (${t.where})`);
  } finally {
    await context.close();
    await closeAppServer();
  }
}
void main();
