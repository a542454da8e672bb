/**
 * The route-reachability walk (issue 26): from the signed-in home, through the module switcher
 * and the side menu, then the links and buttons of the pages, find every route of spec section 2
 * (tests/e2e/spec-routes.json) reachable by a user — no address typed but the first.
 *
 * - A menu entry drawn in the side menu (every group opened) counts as reached: the shell's menu
 *   opens it (tests/e2e/shell.test.ts clicks them).
 * - A page is opened (from the menu, or by following a link or button) when a spec route not yet
 *   reached lies under its path, or when it is a hand-written screen (their buttons are not in a
 *   schema): e.g. the chat sessions page links the hidden session categories.
 * - On an opened page the walk follows: links (`a[href]` into the console); the `navigate` actions
 *   and the `openForm` actions of page forms of every schema drawn there (toolbar, detail actions,
 *   row actions — tried on the first rows until one shows it, through the row's "more" menu too),
 *   only towards a route not reached yet; and on a hand-written screen its `data-action` buttons.
 *   It clicks, waits for the address to change, counts the route reached, explores that page the
 *   same way and comes back.
 */
import type { Locator, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BESPOKE_PAGE_KEYS } from '../../src/contract/permission-manifest.js';
import { buildRouteConfig, flattenRoutes } from '../../src/runtime/route-config.js';
import { matchRoute } from '../../src/runtime/routes.js';
import { diskPermissionTree } from '../../server/schemas/permission-tree.js';
import { api } from './admin-helpers.js';
import { closeModal, ROOT, settle, visit } from './harness.js';

export interface SpecRoutes {
  routes: string[];
  aliases: Record<string, string>;
}
export const SPEC_ROUTES = JSON.parse(readFileSync(path.join(ROOT, 'tests/e2e/spec-routes.json'), 'utf8')) as SpecRoutes;

const ENTRIES = flattenRoutes(buildRouteConfig(() => undefined, diskPermissionTree()));
/** The console's route table: canonical paths (the walk maps every address it reaches to one). */
export const ROUTE_TABLE: string[] = ['/home', ...ENTRIES.map((e) => e.path).filter((p): p is string => Boolean(p))];
/** Hand-written screens (module homes and BESPOKE_PAGE_KEYS): their buttons are in no schema. */
const BESPOKE = new Set(
  ENTRIES.filter((e) => e.path && (e.path.endsWith('/home') || (BESPOKE_PAGE_KEYS as readonly string[]).includes(e.permissionKey))).map((e) => e.path),
);

/** The route pattern an address opens, or null. */
export function patternOf(address: string): string | null {
  const pathname = address.split(/[?#]/)[0];
  return ROUTE_TABLE.find((p) => matchRoute(p, pathname)) ?? null;
}

/** A schema action's target as a pattern: `{{ … }}` parts stand for any segment. */
function targetOf(to: string): string | null {
  return patternOf(to.replace(/\{\{[^}]*\}\}/g, '1'));
}

interface Action {
  key: string;
  type: string;
  to?: string;
  form?: string;
  mode?: string;
}
interface SchemaDoc {
  id: string;
  kind: string;
  toolbar?: Action[];
  rowActions?: Action[];
  actions?: Action[];
  presentation?: string;
  modes?: Record<string, { route?: string }>;
}

export interface WalkResult {
  reached: Map<string, string>;
  opened: string[];
}

export async function walkRoutes(page: Page, log: (s: string) => void = () => undefined): Promise<WalkResult> {
  /** pattern → how it was reached */
  const reached = new Map<string, string>([['/home', 'start']]);
  const opened: string[] = [];
  const schemas = new Map<string, SchemaDoc | null>();
  const tried = new Set<string>();
  const wanted = new Set(SPEC_ROUTES.routes);
  const unreachedUnder = (pattern: string) => [...wanted].some((r) => !reached.has(r) && r.startsWith(`${pattern}/`));

  const schema = async (id: string): Promise<SchemaDoc | null> => {
    if (!schemas.has(id)) {
      try {
        schemas.set(id, (await api<{ schema: SchemaDoc }>(page, 'schema/detail', { id })).schema);
      } catch {
        schemas.set(id, null);
      }
    }
    return schemas.get(id) ?? null;
  };

  /** The route an action leads to, when it leads to one (navigate, or a page form's route). */
  const actionTarget = async (a: Action): Promise<string | null> => {
    if (a.type === 'navigate' && a.to) return targetOf(a.to);
    if (a.type === 'openForm' && a.form) {
      const f = await schema(a.form);
      const route = f?.presentation === 'page' ? f.modes?.[a.mode ?? '']?.route : undefined;
      return route ? patternOf(route) : null;
    }
    return null;
  };

  /** Clicks `target`; when the address changes, counts the route and explores it, then comes back. */
  const follow = async (from: string, target: Locator, how: string, depth: number): Promise<void> => {
    // the address changes, or a modal, a menu or a file chooser opens instead (a button of a hand-written screen)
    const changed = page
      .waitForFunction(
        (f) => location.pathname + location.search !== f || Boolean(document.querySelector('.ant-modal-wrap:not([style*="none"]) .ant-modal, .ant-dropdown:not(.ant-dropdown-hidden)')),
        from,
        { timeout: 10_000 },
      )
      .then(() => true, () => false);
    const chooser = page.waitForEvent('filechooser', { timeout: 10_000 }).then(() => false, () => false);
    // a control that cannot be clicked (covered, disabled) is no way there: the walk goes on without it
    if (!(await target.click({ timeout: 15_000 }).then(() => true, () => false))) return;
    await Promise.race([changed, chooser]);
    const now = await page.evaluate(() => location.pathname + location.search);
    if (now === from) {
      await closeModal(page);
      await page.keyboard.press('Escape');
      return;
    }
    await settle(page);
    const p = patternOf(now);
    if (p && !reached.has(p)) {
      reached.set(p, how);
      log(`${p} <- ${how}`);
      if (depth < 4) await explore(now, p, depth + 1);
    }
    await visit(page, from.split('?')[0]);
  };

  /** Tries a row action on the first rows of a list until one row shows it. */
  const rowButton = async (list: Locator, key: string): Promise<Locator | null> => {
    const rows = list.locator('.ant-table-tbody > tr.ant-table-row');
    await rows
      .first()
      .waitFor({ timeout: 15_000 })
      .catch(() => undefined);
    const n = Math.min(await rows.count(), 10);
    for (let i = 0; i < n; i++) {
      const row = rows.nth(i);
      const direct = row.locator(`[data-action="${key}"]`);
      if (await direct.count()) return direct.first();
      const more = row.locator('[data-action="__more"]');
      if (await more.count()) {
        await more.first().click();
        const inMenu = page.locator(`.ant-dropdown:not(.ant-dropdown-hidden) [data-action="${key}"]`);
        if (await inMenu.count().then((c) => c > 0)) return inMenu.first();
        await page.keyboard.press('Escape');
      }
    }
    return null;
  };

  async function explore(address: string, pattern: string, depth: number): Promise<void> {
    opened.push(pattern);
    const ids = [...new Set(await page.locator('[data-schema-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-schema-id') ?? '')))].filter(Boolean);
    // links into the console
    const hrefs = await page.locator('#root a[href^="/"]').evaluateAll((els) => els.map((e) => e.getAttribute('href') ?? ''));
    for (const href of new Set(hrefs)) {
      const p = patternOf(href);
      if (!p || reached.has(p)) continue;
      await follow(address, page.locator(`#root a[href="${href}"]`).first(), `link on ${pattern}`, depth);
    }
    // schema actions towards a route not reached yet
    for (const id of ids) {
      const doc = await schema(id);
      if (!doc) continue;
      const scope = page.locator(`[data-schema-id="${id}"]`).first();
      const groups: Array<[Action[], boolean]> = [
        [doc.toolbar ?? [], false],
        [doc.actions ?? [], false],
        [doc.rowActions ?? [], true],
      ];
      for (const [actions, inRow] of groups) {
        for (const a of actions) {
          const t = await actionTarget(a);
          if (!t || reached.has(t)) continue;
          const button = inRow ? await rowButton(scope, a.key) : scope.locator(`[data-action="${a.key}"]`).first();
          if (!button || !(await button.count())) continue;
          await follow(address, button, `${id} ${a.key} on ${pattern}`, depth);
        }
      }
    }
    // a hand-written screen's buttons (no schema says where they go)
    if (!ids.length || (await page.locator('[data-action]').count()) > (await page.locator('[data-schema-id] [data-action]').count())) {
      // the buttons shown now (a hidden one, in a closed menu, is no way there)
      const keys = await page.locator('[data-action]').evaluateAll((els) =>
        els.filter((e) => !e.closest('[data-schema-id]') && !e.closest('.ant-table-row') && e.checkVisibility()).map((e) => e.getAttribute('data-action') ?? ''),
      );
      for (const key of new Set(keys)) {
        if (!key || key === '__more' || tried.has(`${pattern} ${key}`)) continue;
        tried.add(`${pattern} ${key}`);
        const b = page.locator(`[data-action="${key}"]:not([data-schema-id] [data-action])`).first();
        // back from the previous button, the screen draws again a moment after its address (a CI
        // run looked while it had not, and skipped the session categories button): a state to wait
        // for. A button waiting for a selection (a batch action) leads nowhere yet.
        const shown = await b.waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false);
        if (shown && (await b.isEnabled().catch(() => false))) await follow(address, b, `${key} on ${pattern}`, depth);
      }
    }
  }

  const menuKeys = async (): Promise<string[]> => {
    const menu = page.getByTestId('side-menu');
    for (let round = 0; round < 3; round++) {
      const closed = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
      const n = await closed.count();
      if (!n) break;
      for (let i = n - 1; i >= 0; i--) await closed.nth(i).click();
    }
    return menu.locator('[data-testid^="menu-item-"]').evaluateAll((els) => els.map((e) => (e.getAttribute('data-testid') ?? '').slice('menu-item-'.length)));
  };

  const modules = [
    ...new Set(
      await page
        .getByTestId('module-switcher')
        .locator('[data-testid^="module-"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? '')),
    ),
  ];
  const pages: Array<[string, string]> = [];
  for (const m of modules) {
    await page.getByTestId(m).first().click();
    await page.waitForFunction((mod) => location.pathname.startsWith(`/${mod}/`), m.slice('module-'.length));
    await settle(page);
    const home = await page.evaluate(() => location.pathname);
    const hp = patternOf(home);
    if (hp && !reached.has(hp)) reached.set(hp, `module switcher ${m}`);
    if (hp) pages.push([home, hp]);
    for (const key of await menuKeys()) {
      const p = patternOf(key);
      if (p && !reached.has(p)) reached.set(p, `menu ${m}`);
      if (p) pages.push([key, p]);
    }
  }
  const screens = new Set(pages.map(([, p]) => p));
  for (const [address, p] of pages) {
    const bespoke = BESPOKE.has(p);
    if (!bespoke && !unreachedUnder(p)) continue;
    if (!screens.has(p)) continue;
    screens.delete(p);
    await visit(page, address);
    await explore(address, p, 0);
  }
  return { reached, opened };
}
