/**
 * `npx tsx bench/console/menu-click-all.ts [rounds]`: the nav.click figures for every list page
 * of the menu on the small demo data (the full run's nav suite uses the large data, seeded once
 * for minutes; this needs only the demo data the smoke run seeds). Prints the figures and writes
 * bench/results/menu-click.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SuiteContext } from '../lib/result.js';
import { appServer, closeAppServer, signIn } from './app-server.js';
import { LIST_ROUTE } from './bundle.bench.js';
import { measureMenuClicks } from './menu-click.js';
import { menuListPages } from './navigation.bench.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main() {
  const rounds = Number(process.argv[2] ?? 3);
  const ctx: SuiteContext = {
    smoke: true,
    only: [],
    skipPeer: true,
    runs: 1,
    profile: false,
    root,
    facts: {},
    log: (m) => console.log(`[menu-click] ${m}`),
    wants: () => true,
  };
  const pages = menuListPages(root);
  const shop = pages.find((p) => p.path === LIST_ROUTE)!;
  const { origin, browser, data } = await appServer(ctx);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  try {
    const first = await context.newPage();
    await first.goto(`${origin}/login`);
    await signIn(first, { email: data.adminEmail, password: data.adminPassword });
    await first.close();
    const figures = await measureMenuClicks(ctx, context, origin, shop, pages, rounds);
    for (const f of figures) console.log(`${f.id}: ${f.value} ms — ${f.label}${f.note ? ` (${f.note})` : ''}`);
    const out = path.join(root, 'bench/results/menu-click.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), data: 'demo', figures }, null, 2));
  } finally {
    await context.close();
    await closeAppServer();
  }
}
void main();
