import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { ratioOf, skipped, type Suite, type SuiteContext } from '../lib/result.js';
import { round } from '../lib/stats.js';
import { appServer, signIn } from './app-server.js';
import { buildBenchPages } from './build.js';
import { serveStatic } from './serve.js';

/**
 * Bundle: the gzip size of the JavaScript a route really loads, read from the browser —
 * the real app serving the production build (dist/), a fresh browser profile, every same-origin
 * .js response counted once, gzipped here at zlib's default level. Baselines, measured the same
 * way: the same screens hand-written in antd (bench/console/pages/login-antd and list-antd).
 */
export const LIST_ROUTE = process.env.BENCH_LIST_ROUTE ?? '/intelligent_text/shop/list';

interface Loaded {
  files: Array<{ path: string; bytes: number; gzip: number }>;
  gzip: number;
}

/** Records every same-origin JS file the page requests while `fn` runs. */
async function jsLoaded(page: Page, origin: string, distDir: string, fn: () => Promise<void>): Promise<Loaded> {
  const seen = new Set<string>();
  const onReq = (req: { url(): string }) => {
    const u = new URL(req.url());
    if (u.origin === origin && /\.m?js$/.test(u.pathname)) seen.add(u.pathname);
  };
  page.on('request', onReq);
  try {
    await fn();
  } finally {
    page.off('request', onReq);
  }
  const files = [...seen].sort().map((p) => {
    const buf = fs.readFileSync(path.join(distDir, p));
    return { path: p, bytes: buf.length, gzip: zlib.gzipSync(buf).length };
  });
  return { files, gzip: files.reduce((n, f) => n + f.gzip, 0) };
}

async function measureRoutes(ctx: SuiteContext, browser: Browser, origin: string, distDir: string, creds: { email: string; password: string }) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  try {
    const login = await jsLoaded(page, origin, distDir, async () => {
      await page.goto(`${origin}/login`, { waitUntil: 'networkidle' });
      await page.locator('[data-testid="login-page"]').waitFor({ timeout: 30_000 });
    });
    await signIn(page, creds);
    // leave the page signed in to (its late requests, e.g. the sign-in message's code, must not
    // count for the list route): a blank page in between cancels whatever is still in flight
    await page.goto('about:blank');
    // the list route opened as a fresh page load with the session, as a bookmark or reload would
    const list = await jsLoaded(page, origin, distDir, async () => {
      await page.goto(`${origin}${LIST_ROUTE}`, { waitUntil: 'networkidle' });
      await page.locator('.ant-table, [data-testid="login-page"]').first().waitFor({ timeout: 30_000 }).catch(() => undefined);
      await page.waitForLoadState('networkidle');
    });
    const landed = new URL(page.url()).pathname;
    return { login, list, landed };
  } finally {
    await context.close();
  }
}

async function baselinePage(browser: Browser, origin: string, distDir: string, name: string): Promise<Loaded> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    return await jsLoaded(page, origin, distDir, async () => {
      await page.goto(`${origin}/pages/${name}.html`, { waitUntil: 'networkidle' });
    });
  } finally {
    await context.close();
  }
}

const kib = (n: number) => round(n / 1024, 1);

export const bundleSuite: Suite = {
  id: 'bundle',
  title: 'Bundle (gzip JS per route, from the production build in Chromium)',
  async run(ctx) {
    const loginGoal = { op: '<=' as const, value: 150, on: 'value' as const }; // issue 23 (was 200)
    const listGoal = { op: '<=' as const, value: 400, on: 'value' as const }; // issue 23 (was 450)
    if (!fs.existsSync(path.join(ctx.root, 'src/main.tsx'))) {
      return [skipped('bundle.login', '/login', 'KiB', 'console shell not landed', loginGoal), skipped('bundle.list', LIST_ROUTE, 'KiB', 'console shell not landed', listGoal)];
    }
    const { origin, browser, distDir, data } = await appServer(ctx);
    buildBenchPages(ctx);
    const benchDist = path.join(ctx.root, 'bench/console/dist');
    const statics = await serveStatic(benchDist, path.join(ctx.root, 'bench/peers/node_modules'));
    try {
      const r = await measureRoutes(ctx, browser, origin, distDir, { email: data.adminEmail, password: data.adminPassword });
      const base = { login: await baselinePage(browser, statics.origin, benchDist, 'login-antd'), list: await baselinePage(browser, statics.origin, benchDist, 'list-antd') };
      const manifest = path.join(distDir, '.vite/manifest.json');
      const note = r.landed !== LIST_ROUTE ? `landed on ${r.landed}, not ${LIST_ROUTE}` : undefined;
      return [
        {
          id: 'bundle.login',
          label: 'JS loaded by /login (gzip)',
          unit: 'KiB',
          value: kib(r.login.gzip),
          baseline: kib(base.login.gzip),
          baselineLabel: 'a sign-in card hand-written in antd',
          ratio: ratioOf(r.login.gzip, base.login.gzip),
          goal: loginGoal,
          detail: { files: r.login.files, baselineFiles: base.login.files, manifest: fs.existsSync(manifest) },
        },
        {
          id: 'bundle.list',
          label: `JS loaded by ${LIST_ROUTE} opened after login (gzip)`,
          unit: 'KiB',
          value: kib(r.list.gzip),
          baseline: kib(base.list.gzip),
          baselineLabel: 'the 100 × 12 list page hand-written in antd (bench page)',
          ratio: ratioOf(r.list.gzip, base.list.gzip),
          goal: listGoal,
          note,
          detail: { files: r.list.files, baselineFiles: base.list.files, landed: r.landed },
        },
      ];
    } finally {
      // the app server and the browser are shared with the nav suite (closed by bench/run.ts)
      await statics.close();
    }
  },
};
