import type { Page } from '../../../src/contract/codes.js';
import type { Queryable } from '../../db/db.js';
import { tablesIn, trackerOf } from '../../db/tracked.js';
import type { ResourceDef, Row } from './types.js';

/**
 * `total` rule (docs/business-api.md): the planner's row estimate for the filtered query is read
 * first (EXPLAIN, cheap). Below EXACT_COUNT_LIMIT rows the count is exact (count(*) over an
 * index is fast there); above it the estimate is returned with `total_estimated: true`, as
 * PostgREST's `count=estimated` does. Exact counts of millions of rows per request would
 * cost a full index/heap scan each time.
 */
export const EXACT_COUNT_LIMIT = 10_000;
/**
 * A total is kept this long per table and filter, and dropped at once when this process
 * writes to a table the count reads (server/db/tracked.ts): paging through a filter costs the
 * page query alone. Writes by other processes show in the total within this time.
 */
export const TOTAL_CACHE_MS = 10_000;

export class Sql {
  readonly params: unknown[] = [];
  readonly where: string[] = [];
  /** adds a parameter and returns its placeholder */
  p(v: unknown): string {
    this.params.push(v);
    return `$${this.params.length}`;
  }
  get whereSql(): string {
    return this.where.length ? ` WHERE ${this.where.join(' AND ')}` : '';
  }
}

/** `acme store` → `acme:* & store:*` (tsquery special characters dropped). */
export function toPrefixQuery(keyword: string): string | null {
  const words = keyword
    .split(/\s+/)
    .map((w) => w.replace(/[&|!():*<>'"\\@~-]/g, ''))
    .filter(Boolean)
    .slice(0, 8);
  return words.length ? words.map((w) => `${w.toLowerCase()}:*`).join(' & ') : null;
}

const column = (def: ResourceDef, name: string) => `t.${def.fields[name]?.column ?? name}`;
/** what a list sorts by: the column, or for a virtual field (no column) its expression over `t` */
const sortExpr = (def: ResourceDef, name: string) => {
  const f = def.fields[name];
  return f?.virtual && f.select ? `(${f.select})` : column(def, name);
};

/** What a list needs of a declaration, worked out once per declaration (they never change). */
interface Plan {
  filters: Array<{
    name: string;
    from: string;
    to: string;
    col: string;
    cast: string;
    kind: NonNullable<ResourceDef['fields'][string]['filter']>;
    where?: string;
  }>;
  selectList: string;
  selectDetail: string;
  /** a list column is a sub-select: page the ids first (see listRows) */
  computed: boolean;
}
const plans = new WeakMap<ResourceDef, Plan>();
function planOf(def: ResourceDef): Plan {
  let plan = plans.get(def);
  if (!plan) {
    const select = (list: boolean) =>
      Object.entries(def.fields)
        .filter(([, f]) => !(list && f.detailOnly))
        .map(([name, f]) => `${f.select ?? `t.${f.column ?? name}`} AS "${name}"`)
        .join(', ');
    plan = {
      filters: Object.entries(def.fields)
        .filter(([, f]) => f.filter)
        .map(([name, f]) => ({
          name,
          from: `${name}_from`,
          to: `${name}_to`,
          col: column(def, name),
          cast: f.schema.format === 'date-time' ? '::timestamptz' : '',
          kind: f.filter!,
          where: f.filterWhere,
        })),
      selectList: select(true),
      selectDetail: select(false),
      computed: Object.values(def.fields).some((f) => !f.detailOnly && !!f.select && /\bSELECT\b/i.test(f.select)),
    };
    plans.set(def, plan);
  }
  return plan;
}

/** Adds the declared filters present in `query` to `sql`. */
export function applyFilters(def: ResourceDef, query: Record<string, unknown>, sql: Sql): void {
  for (const f of planOf(def).filters) {
    const { col, cast, kind } = f;
    if (kind === 'range') {
      const from = query[f.from];
      const to = query[f.to];
      if (from !== undefined && from !== '') sql.where.push(`${col} >= ${sql.p(from)}${cast}`);
      if (to !== undefined && to !== '') {
        // a bare date as the upper bound means the whole day
        const end = typeof to === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(to) ? `${to} 23:59:59.999` : to;
        sql.where.push(`${col} <= ${sql.p(end)}${cast}`);
      }
      continue;
    }
    const v = query[f.name];
    if (v === undefined || v === '' || v === null) continue;
    if (f.where) {
      const placeholder = sql.p(v);
      sql.where.push(`(${f.where.replaceAll('$value', () => placeholder)})`);
      continue;
    }
    sql.where.push(kind === 'ci' ? `lower(${col}) = lower(${sql.p(v)})` : `${col} = ${sql.p(v)}`);
  }
  const kw = typeof query.keyword === 'string' ? query.keyword.trim() : '';
  if (!kw) return;
  const ors: string[] = [];
  if (def.keywordIds && /^\d{1,9}$/.test(kw)) {
    const p = sql.p(Number(kw));
    for (const c of def.keywordIds) ors.push(`t.${c} = ${p}`);
  }
  const tsq = def.keyword ? toPrefixQuery(kw) : null;
  if (tsq) ors.push(`${def.keyword} @@ to_tsquery('simple', ${sql.p(tsq)})`);
  sql.where.push(ors.length ? `(${ors.join(' OR ')})` : 'false');
}

export function selectList(def: ResourceDef, list: boolean): string {
  const plan = planOf(def);
  return list ? plan.selectList : plan.selectDetail;
}

/** Exact or estimated count of `FROM <table> t <where>`, kept briefly on a tracked database. */
export async function countRows(db: Queryable, from: string, sql: Sql): Promise<{ total: number; estimated: boolean }> {
  const tracker = trackerOf(db);
  if (!tracker) return countNow(db, from, sql);
  const text = `FROM ${from}${sql.whereSql}`;
  const key = `count:${text}:${JSON.stringify(sql.params)}`;
  return tracker.memo(key, tablesIn(text), TOTAL_CACHE_MS, () => countNow(db, from, sql));
}

async function countNow(db: Queryable, from: string, sql: Sql): Promise<{ total: number; estimated: boolean }> {
  const plan = await db.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> | string }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${from}${sql.whereSql}`,
    sql.params,
  );
  const raw = plan.rows[0]['QUERY PLAN'];
  const parsed = typeof raw === 'string' ? (JSON.parse(raw) as Array<{ Plan: { 'Plan Rows': number } }>) : raw;
  const estimate = Math.round(parsed[0].Plan['Plan Rows']);
  if (estimate < EXACT_COUNT_LIMIT) {
    const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from}${sql.whereSql}`, sql.params);
    return { total: r.rows[0].n, estimated: false };
  }
  return { total: estimate, estimated: true };
}

const sortable = (def: ResourceDef, v: unknown): v is string => typeof v === 'string' && !!def.fields[v]?.sort;
const direction = (v: unknown, fallback: 'asc' | 'desc') => ((v === 'asc' || v === 'desc' ? v : fallback) === 'asc' ? 'ASC' : 'DESC');

/**
 * ORDER BY of a list: `sort_by` / `sort_order`, then a second key `then_by` / `then_order`
 * (docs/api.md), then id as the tie-breaker that keeps pages stable (in the first key's
 * direction, as before a second key existed).
 */
export function orderByOf(def: ResourceDef, query: Record<string, unknown>): string {
  const first = sortable(def, query.sort_by) ? query.sort_by : def.defaultSort.field;
  const dir = direction(query.sort_order, def.defaultSort.order);
  if (first === 'id') return `t.id ${dir}`;
  const keys = [`${sortExpr(def, first)} ${dir}`];
  const then = query.then_by;
  if (sortable(def, then) && then !== first) {
    if (then === 'id') return `${keys[0]}, t.id ${direction(query.then_order, 'asc')}`;
    keys.push(`${sortExpr(def, then)} ${direction(query.then_order, 'asc')}`);
  }
  return `${keys.join(', ')}, t.id ${dir}`;
}

export interface ListOptions {
  /** extra conditions added by a bespoke list (already using `sql.p`) */
  extra?: (sql: Sql) => void;
}

export async function listRows(
  def: ResourceDef,
  db: Queryable,
  query: Record<string, unknown>,
  opts: ListOptions = {},
): Promise<Page<Row>> {
  const page = Number(query.page ?? 1) || 1;
  const pageSize = Number(query.page_size ?? 10) || 10;
  const sql = new Sql();
  applyFilters(def, query, sql);
  opts.extra?.(sql);
  const { total, estimated } = await countRows(db, `${def.table} t`, sql);
  const orderBy = orderByOf(def, query);
  const limit = `LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
  // Computed columns (sub-selects) are evaluated for the page's rows only: the inner query
  // finds the page's ids (through an index, skipping OFFSET rows cheaply), the outer one reads
  // those rows whole. Selecting them in one query would evaluate them for every skipped row.
  const rows = await db.query<Row>(
    planOf(def).computed || def.joins
      ? `SELECT ${selectList(def, true)} FROM (SELECT t.id FROM ${def.table} t${sql.whereSql} ORDER BY ${orderBy} ${limit}) page` +
          ` JOIN ${def.table} t ON t.id = page.id ${def.joins ?? ''} ORDER BY ${orderBy}`
      : `SELECT ${selectList(def, true)} FROM ${def.table} t${sql.whereSql} ORDER BY ${orderBy} ${limit}`,
    sql.params,
  );
  const out: Page<Row> = { list: rows.rows, total, page, page_size: pageSize };
  if (estimated) out.total_estimated = true;
  return out;
}

export async function findRow(def: ResourceDef, db: Queryable, id: number, lock = false): Promise<Row | null> {
  const r = await db.query<Row>(
    `SELECT ${selectList(def, false)} FROM ${def.table} t ${def.joins ?? ''} WHERE t.id = $1${lock ? ' FOR UPDATE OF t' : ''}`,
    [id],
  );
  return r.rows[0] ?? null;
}
