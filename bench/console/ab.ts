/**
 * A/B of one bench page between two checkouts, with the hand-written baseline beside them:
 * `npx tsx bench/console/ab.ts <treeA> <treeB> [--rounds 20] [--page list-schema] [--query '?rows=100&page_size=100']`.
 * Each tree's `bench/console/dist` must be built first (`npm run bench -- --only console.list`
 * there, or `node node_modules/vite/bin/vite.js build --config bench/console/vite.config.ts`).
 * Every round loads A, the baseline (from B's build) and B in one browser, the order reversed
 * every other round, and the figures are medians per side plus B ÷ A: a change is judged against
 * its own parent in the same minutes, which a full run's ratio to antd cannot do to 5 % on this
 * machine (docs/performance.md, "Latest full run"). Nothing is written; it prints a table.
 */
import path from 'node:path';
import { launch, measurePage, type PageResult } from './browser.js';
import { serveStatic } from './serve.js';
import { median } from '../lib/stats.js';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};
const [treeA, treeB] = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
if (!treeA || !treeB) {
  console.error('usage: npx tsx bench/console/ab.ts <treeA> <treeB> [--rounds N] [--page list-schema] [--query ?…]');
  process.exit(2);
}
const rounds = Math.max(1, Number(opt('rounds', '20')) || 20);
const page = opt('page', 'list-schema');
const basePage = page === 'form-schema' ? 'form-formily' : page.replace('schema', 'antd');
const query = opt('query', page.startsWith('form') ? '' : '?rows=100&page_size=100');
const METRICS = ['render', 'navigation', 'cpu', 'script', 'commits'] as const;
type Side = 'A' | 'B' | 'base';

const servers = await Promise.all([treeA, treeB].map((t) => serveStatic(path.resolve(t, 'bench/console/dist'), path.resolve(t, 'bench/peers/node_modules'))));
const urlOf: Record<Side, string> = {
  A: `${servers[0].origin}/pages/${page}.html${query}`,
  B: `${servers[1].origin}/pages/${page}.html${query}`,
  base: `${servers[1].origin}/pages/${basePage}.html${query}`,
};
const browser = await launch();
const got: Record<Side, PageResult[]> = { A: [], B: [], base: [] };
try {
  for (let i = 0; i < rounds; i++) {
    const order: Side[] = i % 2 ? ['A', 'base', 'B'] : ['B', 'base', 'A'];
    for (const side of order) {
      const r = await measurePage(browser, urlOf[side]);
      if (r.error) console.log(`${side}: ${r.error.slice(0, 200)}`);
      else got[side].push(r);
    }
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
const med = (side: Side, m: (typeof METRICS)[number]) => median(got[side].map((r) => r[m]).filter((v): v is number => typeof v === 'number')) ?? NaN;
console.log(`${page} vs ${basePage}, ${rounds} rounds (${got.A.length} / ${got.B.length} / ${got.base.length} good loads)`);
console.log('metric       A        B        base     A÷base  B÷base  B÷A');
for (const m of METRICS) {
  const [a, b, c] = (['A', 'B', 'base'] as const).map((s) => med(s, m));
  const cell = (v: number) => v.toFixed(0).padStart(7);
  console.log(`${m.padEnd(10)} ${cell(a)}  ${cell(b)}  ${cell(c)}   ${(a / c).toFixed(3)}   ${(b / c).toFixed(3)}   ${(b / a).toFixed(3)}`);
}
