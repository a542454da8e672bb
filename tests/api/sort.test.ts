// @db both — ORDER BY over text columns (the engine's collation)
/**
 * Sorting (issue 14): every list route sorts by every column it declares sortable, in both
 * directions and with a second key (`then_by` / `then_order`), over the demo data; the order a
 * reply comes in is the order asked for; an unknown column is refused naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../server/routes/index.js';
import { startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let admin: ApiClient;
interface ListRoute {
  path: string;
  sorts: string[];
}
let lists: ListRoute[] = [];

beforeAll(async () => {
  s = await startServer({ seedDemo: true });
  admin = await s.login();
  lists = (await allRoutes())
    .filter((r) => r.method === 'GET' && (r.base ?? 'admin') === 'admin')
    .map((r) => ({ path: r.path, sorts: ((r.query as { properties?: Record<string, { enum?: string[] }> } | undefined)?.properties?.sort_by?.enum ?? []) }))
    .filter((r) => r.sorts.length > 0);
});
afterAll(async () => {
  await s?.close();
});

/** a comparable value: numbers as numbers, times as times, text as text; null sorts last ascending (PostgreSQL's default) */
const cmp = (a: unknown, b: unknown): number => {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const na = Number(a);
  const nb = Number(b);
  if (typeof a === 'string' && typeof b === 'string' && /^-?\d+(\.\d+)?$/.test(a) && /^-?\d+(\.\d+)?$/.test(b)) return na - nb;
  const ta = Date.parse(String(a));
  const tb = Date.parse(String(b));
  if (/^\d{4}-\d\d-\d\d/.test(String(a)) && !Number.isNaN(ta) && !Number.isNaN(tb)) return ta - tb;
  return 0; // text: collation differs between databases; checked through the database below
};

describe('every sortable column of every list', () => {
  it('the list routes declare id, a time and (where they have one) status as sortable', () => {
    expect(lists.length).toBeGreaterThan(40);
    for (const l of lists) expect(l.sorts, l.path).toContain('id');
    const shop = lists.find((l) => l.path === 'shop/list')!;
    expect(shop.sorts).toEqual(expect.arrayContaining(['id', 'name', 'plugin_status', 'created_at', 'updated_at']));
    expect(lists.find((l) => l.path === 'call-center/task/list')!.sorts).toEqual(expect.arrayContaining(['status', 'name', 'start_at']));
  });

  it('answers every column in both directions, in that order', async () => {
    const failures: string[] = [];
    for (const l of lists) {
      for (const field of l.sorts) {
        for (const order of ['asc', 'desc'] as const) {
          const r = await admin.get<{ list: Array<Record<string, unknown>> }>(l.path, { sort_by: field, sort_order: order, page_size: 50 });
          if (r.body.code !== 10000) {
            // a list that needs a parent (e.g. results of one task) answers 40001 naming it; not a sort problem
            if (r.body.code === 40001 && !/sort/.test(r.body.msg)) break;
            failures.push(`${l.path} ${field} ${order}: ${r.status} ${r.body.code} ${r.body.msg}`);
            continue;
          }
          const vals = r.body.data.list.map((row) => row[field]);
          for (let i = 1; i < vals.length; i++) {
            const c = cmp(vals[i - 1], vals[i]);
            if ((order === 'asc' && c > 0) || (order === 'desc' && c < 0 && vals[i - 1] !== null)) {
              failures.push(`${l.path} ${field} ${order}: ${JSON.stringify(vals[i - 1])} before ${JSON.stringify(vals[i])}`);
              break;
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it('a second key orders rows that tie on the first', async () => {
    const page = await admin.ok<{ list: Array<{ id: number; plugin_status: number; name: string }> }>('GET', 'shop/list', {
      sort_by: 'plugin_status',
      sort_order: 'desc',
      then_by: 'id',
      then_order: 'asc',
      page_size: 100,
    });
    const rows = page.list;
    expect(rows.length).toBeGreaterThan(3);
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1], rows[i]];
      expect(a.plugin_status >= b.plugin_status, `${a.id} ${b.id}`).toBe(true);
      if (a.plugin_status === b.plugin_status) expect(a.id < b.id, `${a.id} ${b.id}`).toBe(true);
    }
    // the same through the database: the reply's order is the database's order for the two keys
    const db = await s.db.query<{ id: number }>('SELECT id FROM shop ORDER BY plugin_status DESC, id ASC LIMIT 100');
    expect(rows.map((r) => r.id)).toEqual(db.rows.map((r) => r.id));
    const named = await admin.ok<{ list: Array<{ id: number }> }>('GET', 'shop/list', { sort_by: 'plugin_status', sort_order: 'asc', then_by: 'name', then_order: 'desc', page_size: 100 });
    const dbNamed = await s.db.query<{ id: number }>('SELECT id FROM shop ORDER BY plugin_status ASC, name DESC, id ASC LIMIT 100');
    expect(named.list.map((r) => r.id)).toEqual(dbNamed.rows.map((r) => r.id));
  });

  it('an unknown column is refused naming the field, and nothing else breaks', async () => {
    for (const [q, field] of [
      [{ sort_by: 'password' }, 'sort_by'],
      [{ then_by: 'nope' }, 'then_by'],
      [{ sort_by: 'id', then_order: 'sideways' }, 'then_order'],
    ] as const) {
      const r = await admin.get('shop/list', q);
      expect(r.status, JSON.stringify(q)).toBe(200);
      expect(r.body.code).toBe(40001);
      expect(r.body.msg).toContain(field);
    }
    expect((await admin.get('shop/list')).body.code).toBe(10000);
  });
});
