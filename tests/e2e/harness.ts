/**
 * Browser-test harness: builds the client if dist/ is missing or stale, starts the real server
 * (built: build/server/server.js) on a free port with a temp DATA_DIR, a known super admin and
 * the demo seed, waits for it, launches Debian's Chromium through playwright-core, and cleans up.
 * The test files share a seeded data dir (seededTemplate): made once, every file starts its
 * server on its own copy of it.
 *
 *   const h = await startHarness();   // h.baseUrl, h.admin, h.operator, h.browser
 *   const page = await h.newPage();   // fresh context (own cookies and localStorage)
 *   await h.signIn(page, h.admin);
 *   await h.close();
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { syncAllKnowledge } from '../../server/ai/knowledge/index.js';
import { MIGRATIONS_DIR } from '../../server/db/migrate.js';
import { openDb } from '../../server/db/open.js';
import { diskPermissionTree, treeFingerprint } from '../../server/schemas/permission-tree.js';
import { withLockDir } from '../../scripts/lib/lock-dir.mjs';
import { quickHash } from '../quick-hash.js';
import { ensureServerBuilt, SERVER_ENTRY } from '../../scripts/lib/server-build.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHOTS_DIR = process.env.SHOTS_DIR ?? '/tmp/shots';
/** `h.shot` takes its screenshot (a file run by hand: yes; `npm run test:e2e` sets E2E_SHOTS=0 unless it is set) */
const SHOTS = process.env.E2E_SHOTS !== '0';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface Account {
  email: string;
  password: string;
}

export interface Harness {
  baseUrl: string;
  browser: Browser;
  admin: Account;
  /** the demo operator seeded with SEED_DEMO=1 (server/db/seed-core.ts): some intelligent_text keys only */
  operator: Account;
  /** server output so far (for failure messages) */
  log(): string;
  newPage(): Promise<Page>;
  signIn(page: Page, account: Account): Promise<void>;
  shot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export const ADMIN: Account = { email: 'admin@e2e.test', password: 'e2e-admin-password-1' };
/** the demo operator's password is generated unless DEMO_PASSWORD names it: the harness names it */
export const OPERATOR: Account = { email: 'operator@example.com', password: 'e2e-operator-password-1' };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** Newest modification time under the client sources (src/, schemas/, index.html, vite.config.ts). */
function newestSource(): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== 'node_modules') visit(path.join(p, name));
    } else if (!/\.test\.tsx?$/.test(p)) newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of ['src', 'public', 'schemas', 'index.html', 'vite.config.ts']) visit(path.join(ROOT, p));
  return newest;
}

/**
 * Builds the client when dist/ is missing or older than the sources (E2E_REBUILD=1 forces,
 * E2E_REBUILD=0 never rebuilds an existing dist). A lock directory keeps parallel test files
 * from building at the same time.
 */
export async function ensureBuilt(): Promise<void> {
  const index = path.join(ROOT, 'dist/index.html');
  const stale = () =>
    process.env.E2E_REBUILD === '1' ||
    !existsSync(index) ||
    (process.env.E2E_REBUILD !== '0' && statSync(index).mtimeMs < newestSource());
  await withLockDir(path.join(ROOT, 'node_modules/.e2e-build.lock'), { staleMs: 300_000, done: () => !stale() }, () => {
    const r = spawnSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('vite build failed');
  });
}

/** E2E_SERVER_START_MS waits longer on a machine busy with other work (default 120 s). */
async function waitForServer(url: string, child: ChildProcess, output: () => string, timeoutMs = Number(process.env.E2E_SERVER_START_MS) || 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}/api/common/config`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not start within ${timeoutMs} ms:\n${output()}`);
}

/** The real server on `dataDir` (migrated and seeded there if it is empty). */
function spawnServer(dataDir: string, port: number, onOutput: (text: string) => void): ChildProcess {
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_PASSWORD: OPERATOR.password,
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
      STATIC_DIR: path.join(ROOT, 'dist'),
      // browsers on one address sign in and load pages far faster than people do
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
      SESSIONS_PER_ACCOUNT: '10000',
      // a test signs in "from" other addresses (X-Forwarded-For); the browser sends none, so its
      // requests come from 127.0.0.1 as before
      TRUST_PROXY: '1',
      // the account ceiling at its floor, so the sign-in notice test reaches it with 15 attempts
      LOGIN_ACCOUNT_CEILING: '10',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => onOutput(d.toString()));
  child.stderr?.on('data', (d: Buffer) => onOutput(d.toString()));
  return child;
}

/** SIGTERM (the server checkpoints and closes PGlite), SIGKILL after 10 s. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * Templates are kept per checkout (a hash of its path): the clean-up of old templates below never
 * removes one that a run in another checkout (a CI clone beside a working tree) is copying from.
 */
const TEMPLATE_PREFIX = `bo-e2e-template-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}-`;

/** What the seeded template depends on: the built server (its code, demo seed included), the migrations, the menu pages, this file. */
function templateKey(): string {
  const h = createHash('sha256');
  const addTree = (dir: string) => {
    for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
      const p = path.join(dir, name);
      if (statSync(p).isFile() && !name.endsWith('.map')) h.update(name).update(readFileSync(p));
    }
  };
  addTree(path.join(ROOT, 'build/server'));
  addTree(MIGRATIONS_DIR);
  h.update(treeFingerprint(diskPermissionTree()));
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  h.update(JSON.stringify([ADMIN, OPERATOR]));
  // the demo data holds dates relative to the day it was seeded ("today's sessions")
  h.update(new Date().toISOString().slice(0, 10));
  return h.digest('hex').slice(0, 16);
}

/**
 * A data dir migrated, demo-seeded and with its knowledge indexed, made once per version of
 * what it depends on (templateKey) and kept in the OS temp dir; a copy of it is each test
 * file's own database. The browser-suite runner (scripts/e2e-run.ts) makes it before the files
 * start; a file run alone makes it itself. Templates of other versions untouched for 10
 * minutes are removed. E2E_FRESH_SEED=1: none (each file seeds its own).
 */
export async function seededTemplate(): Promise<string | null> {
  if (process.env.E2E_FRESH_SEED === '1') return null;
  await ensureServerBuilt({ quiet: true });
  const template = path.join(tmpdir(), `${TEMPLATE_PREFIX}${templateKey()}`);
  // it appears whole: seeded in a dir of its own, then renamed (atomic) to this name
  if (existsSync(template)) return template;
  for (const name of readdirSync(tmpdir())) {
    const old = path.join(tmpdir(), name);
    try {
      if (name.startsWith(TEMPLATE_PREFIX) && Date.now() - statSync(old).mtimeMs > 600_000) rmSync(old, { recursive: true, force: true });
    } catch {
      /* another run removed it */
    }
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'bo-e2e-seeding-'));
  const port = await freePort();
  let output = '';
  const child = spawnServer(dir, port, (t) => (output += t));
  try {
    await waitForServer(`http://127.0.0.1:${port}`, child, () => output);
  } catch (e) {
    await stopServer(child);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  await stopServer(child);
  // The demo knowledge is indexed lazily by the server's knowledge.sync tick (a few seconds of
  // CPU on PGlite's single thread). Done here once, every file's server starts with it indexed
  // instead of indexing it again while its first pages and sign-ins wait.
  const db = await openDb({ databaseUrl: '', dataDir: dir });
  try {
    await syncAllKnowledge(db);
    // the two accounts the files sign in with carry a scrypt hash at N = 2^10, as the API
    // harness's own accounts do (tests/quick-hash.ts): sign-in verifies with the parameters stored
    // in the hash, so the path is the real one, at a thousandth of the CPU of the production
    // 2^17 (128 MiB) — a browser file signs in up to five times. Accounts made in the tests and
    // unknown emails still hash at the production cost.
    for (const a of [ADMIN, OPERATOR]) await db.query('UPDATE accounts SET password_hash = $2 WHERE email = $1', [a.email, quickHash(a.password)]);
  } finally {
    await db.close();
  }
  try {
    renameSync(dir, template);
  } catch {
    rmSync(dir, { recursive: true, force: true }); // another file made it first
  }
  return template;
}

export async function startHarness(): Promise<Harness> {
  await ensureBuilt();
  await ensureServerBuilt({ quiet: true });
  mkdirSync(SHOTS_DIR, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bo-e2e-'));
  const template = await seededTemplate();
  if (template) cpSync(template, dataDir, { recursive: true });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawnServer(dataDir, port, (t) => (output += t));

  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    await stopServer(child);
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForServer(baseUrl, child, () => output);
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (bash .ci/run does) or set CHROMIUM_PATH`);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  } catch (e) {
    await stop();
    throw e;
  }
  const b = browser;

  return {
    baseUrl,
    browser: b,
    admin: ADMIN,
    operator: OPERATOR,
    log: () => output,
    async newPage() {
      // reduced motion: the console then turns antd's animations off, so no click lands on a
      // modal or confirm that is still zooming in (two CI failures had that shape)
      const ctx = await b.newContext({ baseURL: baseUrl, viewport: { width: 1366, height: 820 }, locale: 'zh-CN', reducedMotion: 'reduce' });
      // bounds for a stuck page, not speed goals: a first navigation took over 30 s (Playwright's
      // default) once with eight engineers' tests on the 2 cores
      ctx.setDefaultNavigationTimeout(90_000);
      ctx.setDefaultTimeout(45_000);
      return ctx.newPage();
    },
    async signIn(page, account) {
      await page.goto('/login');
      await page.locator('#email').fill(account.email);
      await page.locator('#password').fill(account.password);
      await page.getByTestId('login-submit').click();
      await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 45_000 });
    },
    async shot(page, name) {
      const file = path.join(SHOTS_DIR, `${name}.png`);
      if (!SHOTS) return file; // npm run test:e2e takes none unless E2E_SHOTS=1 (nobody reads CI's)
      await page.screenshot({ path: file, fullPage: false });
      return file;
    },
    close: stop,
  };
}

/**
 * A page has settled: the console drew and its first data arrived (no spinner or skeleton left;
 * bounded, since a page may poll).
 */
export async function settle(page: Page): Promise<void> {
  await page.locator('#root *').first().waitFor();
  await page
    .waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton-active'), undefined, { timeout: 10_000 })
    .catch(() => undefined);
  await page.waitForTimeout(100);
}

/** In-app navigation (React Router hears popstate): no reload; the language and theme switched in place stay. */
export async function visit(page: Page, p: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, p);
  await page.waitForFunction((to) => location.pathname === to, p);
  await settle(page);
}

/**
 * Clicks a row action by its key: directly when it is shown, else through the row's "more"
 * menu (past three row actions the first two stay links and the rest fold: src/widgets/actions/ActionButtons.tsx).
 */
export async function rowAction(page: Page, row: ReturnType<Page['locator']>, key: string): Promise<void> {
  const direct = row.locator(`[data-action="${key}"]`);
  if (await direct.count()) return direct.first().click();
  await row.locator('[data-action="__more"]').click();
  await page.locator(`.ant-dropdown:not(.ant-dropdown-hidden) [data-action="${key}"]`).click();
}

/**
 * Closes the top-most open modal with its close button (Escape only reaches a modal that holds
 * the focus) and waits until one modal fewer is shown.
 */
export async function closeModal(page: Page): Promise<void> {
  const shown = page.locator('.ant-modal-wrap:visible .ant-modal');
  const before = await shown.count();
  if (!before) return;
  const top = shown.last();
  if (await top.locator('.ant-modal-close').count()) await top.locator('.ant-modal-close').click();
  else await page.keyboard.press('Escape');
  const end = Date.now() + 15_000;
  while ((await shown.count()) >= before) {
    if (Date.now() > end) throw new Error('the modal did not close');
    await page.waitForTimeout(100);
  }
}
