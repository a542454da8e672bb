/**
 * `npx tsx scripts/explain-check.ts`: on the configured database (DATABASE_URL or
 * DATA_DIR, best after `npm run seed -- --scale large`), EXPLAINs the list query of every
 * declared filter, sort and keyword of the big tables and reports any sequential scan.
 */
import { loadConfig } from '../server/config.js';
import type { Queryable } from '../server/db/db.js';
import { openDb } from '../server/db/open.js';
import { listRows } from '../server/resources/engine/list.js';
import type { ResourceDef } from '../server/resources/engine/types.js';
import { RESOURCES } from '../server/resources/index.js';

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] }
const seqScans = (n: PlanNode, table: string): boolean =>
  (n['Node Type'] === 'Seq Scan' && n['Relation Name'] === table) || (n.Plans ?? []).some((c) => seqScans(c, table));

const BIG = new Set(['shop', 'shop_order', 'policy', 'learn_material', 'merchant_user', 'mail_account']);

async function check(db: Queryable, def: ResourceDef, query: Record<string, unknown>): Promise<string | null> {
  const plans: PlanNode[] = [];
  const spy: Queryable = {
    query: async <T,>(sql: string, params?: unknown[]) => {
      if (/^SELECT (?!count)/.test(sql) || /^SELECT count/.test(sql)) {
        const r = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
        const raw = r.rows[0]['QUERY PLAN'];
        plans.push((typeof raw === 'string' ? JSON.parse(raw) : raw)[0].Plan);
        return { rows: /^SELECT count/.test(sql) ? ([{ n: 0 }] as T[]) : [], affectedRows: 0 };
      }
      return db.query<T>(sql, params);
    },
  };
  await listRows(def, spy, { page: 1, page_size: 10, ...query });
  return plans.some((p) => seqScans(p, def.table)) ? JSON.stringify(query) : null;
}

const db = await openDb(loadConfig());
let bad = 0;
let total = 0;
try {
  for (const def of RESOURCES.filter((r) => BIG.has(r.table) && r.operations.list)) {
    const probes: Array<Record<string, unknown>> = [{}];
    for (const [name, f] of Object.entries(def.fields)) {
      const col = f.column ?? name;
      if (f.filter) {
        const v = (await db.query<{ v: unknown }>(`SELECT ${col} AS v FROM ${def.table} WHERE ${col} IS NOT NULL ORDER BY id DESC LIMIT 1`)).rows[0]?.v;
        if (v === undefined) continue;
        const val = v instanceof Date ? v.toISOString() : typeof v === 'string' && f.schema.type === 'number' ? Number(v) : v;
        probes.push(f.filter === 'range' ? { [`${name}_from`]: val } : { [name]: val });
      }
      if (f.sort) probes.push({ sort_by: name, sort_order: 'asc' }, { sort_by: name, sort_order: 'desc' });
    }
    if (def.keyword) probes.push({ keyword: 'nova' });
    if (def.keywordIds) probes.push({ keyword: '12345' });
    for (const q of probes) {
      total++;
      const r = await check(db, def, q);
      if (r) {
        bad++;
        console.log(`SEQ SCAN  ${def.name}/list ${r}`);
      }
    }
  }
  console.log(`${total} list queries checked, ${bad} with a sequential scan on a big table`);
} finally {
  await db.close();
}
process.exit(bad ? 1 : 0);
