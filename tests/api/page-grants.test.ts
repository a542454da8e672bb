// @db once
/**
 * Issue 11: the permission that opens a page grants the page's own read calls
 * (server/schemas/grants.ts, docs/security.md "Page permissions grant their read calls").
 *
 * The knowledge hit-test page (key `…policy_management.hit_test`) has a shop picker on
 * `GET shop-list`, a route whose hand-declared keys do not list that page's key: a user holding
 * only the page's key was refused (40003) there. Now the schemas' grant table opens it, while
 * the calls of other pages, every POST and every admin_center route stay refused — and the grant
 * follows the schema store (a page taken out of the store no longer grants).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowed } from '../../server/http/register.js';
import type { RouteDef, SessionUser } from '../../server/http/route.js';
import { allRoutes } from '../../server/routes/index.js';
import { checkPermissionReach, deriveGrants } from '../../server/schemas/grants.js';
import { getSchemaStore } from '../../server/schemas/store.js';
import { startServer, type ApiClient, type TestServer } from './harness.js';

const PAGE_ID = 'intelligent_text.knowledge_hit_test';
const PAGE_KEY = 'intelligent_text.text.learn.policy_management.hit_test';

let s: TestServer;
let routes: RouteDef[];
let viewer: ApiClient & { accountId: number };

beforeAll(async () => {
  s = await startServer({ config: { workers: 0 } });
  routes = await allRoutes();
  viewer = await s.loginWithKeys([PAGE_KEY]);
});
afterAll(async () => s?.close());

const find = (api: string): RouteDef => routes.find((r) => `${r.method} ${r.path}` === api && (r.base ?? 'admin') === 'admin')!;
const holder = (keys: string[]): SessionUser => ({ id: 0, email: '', name: '', isSuperAdmin: false, keys: new Set(keys), sessionId: 0 });

describe('a page permission grants its own read calls', () => {
  it('the page calls GET shop-list, whose declared keys do not list the page key (the case of the issue)', () => {
    const page = getSchemaStore().get(PAGE_ID);
    expect(page?.permission).toBe(PAGE_KEY);
    expect(JSON.stringify(page?.doc)).toContain('"GET shop-list"');
    expect(allowed(find('GET shop-list').access, holder([PAGE_KEY])), 'GET shop-list lists the hit-test key by hand now: pick another case').toBe(false);
    expect([...(deriveGrants(getSchemaStore().pages(), routes).get('GET shop-list') ?? [])]).toContain(PAGE_KEY);
  });

  it("a role holding only the page's key calls the page's data calls (200), and nothing of another page", async () => {
    const picker = await viewer.get('shop-list', { env: 'all' });
    expect([picker.status, picker.body.code]).toEqual([200, 10000]);
    expect(Array.isArray(picker.body.data)).toBe(true);

    // other pages' calls, a write and admin routes: still 40003
    for (const p of ['shop/list', 'notification/list', 'account/list', 'role/all', 'audit-log/list', 'job/list']) {
      const r = await viewer.get(p, { page: 1, page_size: 10 });
      expect([p, r.status, r.body.code]).toEqual([p, 200, 40003]);
    }
    const write = await viewer.post('shop/delete', { id: 1 });
    expect(write.body.code).toBe(40003);
  });

  it('a refusal is still audited; a granted call is not a refusal', async () => {
    const before = await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_logs WHERE action = 'forbidden' AND actor_id = $1`, [viewer.accountId]);
    await viewer.get('shop-list', { env: 'all' });
    await viewer.get('notification/list', { page: 1, page_size: 10 });
    const after = await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_logs WHERE action = 'forbidden' AND actor_id = $1`, [viewer.accountId]);
    expect(after.rows[0].n - before.rows[0].n).toBe(1);
  });

  it('follows the schema store: the page taken out no longer grants, put back grants again', async () => {
    const store = getSchemaStore();
    const page = store.get(PAGE_ID)!;
    store.remove(PAGE_ID);
    try {
      const r = await viewer.get('shop-list', { env: 'all' });
      expect(r.body.code).toBe(40003);
    } finally {
      store.put(page);
    }
    const again = await viewer.get('shop-list', { env: 'all' });
    expect(again.body.code).toBe(10000);
  });

  it('the real schemas: no grant on an admin_center, public, login or service route or on a POST, and schemas:check finds no page key short of its calls', () => {
    const table = deriveGrants(getSchemaStore().pages(), routes);
    for (const api of table.keys()) {
      const r = find(api);
      expect(r.method, api).toBe('GET');
      const keys = typeof r.access === 'object' && 'permission' in r.access ? [r.access.permission].flat() : [];
      expect(keys.length, api).toBeGreaterThan(0);
      expect(keys.some((k) => k.startsWith('admin_center.')), api).toBe(false);
    }
    expect(checkPermissionReach(getSchemaStore().pages(), routes)).toEqual([]);
  });
});
