import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { benchData, type BenchData } from '../api/data.js';
import { startTsx, type Child } from '../lib/proc.js';
import type { SuiteContext } from '../lib/result.js';
import { launch } from './browser.js';
import { ensureConsoleBuild } from './build.js';

/**
 * The real app serving the production build (dist/) on the bench data, and one Chromium, shared
 * by the browser suites that need a signed-in console (bundle, nav): started once per run,
 * closed by bench/run.ts at the end.
 */
export interface AppServer {
  origin: string;
  browser: Browser;
  distDir: string;
  data: BenchData;
}

let started: Promise<{ app: AppServer; child: Child }> | null = null;

export async function appServer(ctx: SuiteContext): Promise<AppServer> {
  started ??= (async () => {
    ensureConsoleBuild(ctx);
    const distDir = path.join(ctx.root, 'dist');
    const data = await benchData(ctx);
    const child = startTsx(path.join(ctx.root, 'bench/api/server-child.ts'), [], { ...data.env, STATIC_DIR: distDir }, ctx.root);
    try {
      const ready = await child.message<{ app: number }>('BENCH_READY', 5 * 60_000);
      const browser = await launch();
      return { app: { origin: `http://127.0.0.1:${ready.app}`, browser, distDir, data }, child };
    } catch (err) {
      await child.stop();
      throw err;
    }
  })();
  try {
    return (await started).app;
  } catch (err) {
    started = null;
    throw err;
  }
}

export async function closeAppServer(): Promise<void> {
  if (!started) return;
  const s = await started.catch(() => null);
  started = null;
  if (!s) return;
  await s.app.browser.close().catch(() => undefined);
  await s.child.stop();
}

/** Signs in through the login page; the context keeps the session. */
export async function signIn(page: Page, creds: { email: string; password: string }): Promise<void> {
  await page.locator('input[autocomplete="username"]').fill(creds.email);
  await page.locator('input[autocomplete="current-password"]').fill(creds.password);
  await page.locator('[data-testid="login-submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 30_000 });
}
