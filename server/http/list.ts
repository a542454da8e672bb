import { Kind, Type, type TArray, type TBoolean, type TInteger, type TObject, type TOptional, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { DEFAULT_PAGE_SIZE, type Page } from '../../src/contract/codes.js';
import type { Queryable } from '../db/db.js';
import type { JsonSchema } from './route.js';

export const MAX_PAGE_SIZE = 1000;

/** `page` (from 1) and `page_size` (default 10, max 1000) as TypeBox schemas, for routes declared with `route()`. */
export const pageFields = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
};

/**
 * Reply schema of a page of `item` (with `extra` reply properties beside the page's, e.g. counts):
 * the one page-reply schema of the server (issue 22) — plain routes and the resource engine use it.
 * TypeBox: a handler returns a `Page` of the item's static type (the resource engine's rows are
 * records: server/resources/engine/schemas.ts `rowSchema`; a plain JSON Schema item is `unknown`);
 * the extras are optional.
 */
export function pageReply<T extends TSchema>(item: T): TObject<PageProps<T>>;
export function pageReply<T extends TSchema>(item: T, extra: Record<string, JsonSchema>): TObject<PageProps<T> & Record<string, TSchema>>;
export function pageReply(item: JsonSchema): TObject<PageProps<TUnsafe<unknown>>>;
export function pageReply(item: JsonSchema, extra: Record<string, JsonSchema>): TObject<PageProps<TUnsafe<unknown>> & Record<string, TSchema>>;
export function pageReply(item: TSchema | JsonSchema, extra: Record<string, JsonSchema> = {}) {
  const items = Kind in item ? (item as TSchema) : Type.Unsafe<unknown>(item);
  return Type.Object({
    list: Type.Array(items),
    total: Type.Integer(),
    page: Type.Integer(),
    page_size: Type.Integer(),
    total_estimated: Type.Optional(Type.Boolean()),
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, Type.Optional(Type.Unsafe<unknown>(v))])),
  });
}

type PageProps<T extends TSchema> = {
  list: TArray<T>;
  total: TInteger;
  page: TInteger;
  page_size: TInteger;
  total_estimated: TOptional<TBoolean>;
};

export interface PageQuery {
  page?: number;
  page_size?: number;
}

/**
 * Runs `SELECT ... FROM ... WHERE ...` as one page. `fromWhere` is everything after the
 * select list (FROM, JOINs, WHERE) with $n placeholders for `params`; `orderBy` e.g. `id DESC`.
 */
export async function paged<T>(
  q: Queryable,
  opts: { select: string; fromWhere: string; orderBy: string; params?: unknown[] },
  query: PageQuery,
): Promise<Page<T>> {
  const page = query.page ?? 1;
  const pageSize = Math.min(query.page_size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const params = opts.params ?? [];
  const n = params.length;
  const [rows, count] = await Promise.all([
    q.query<T>(`SELECT ${opts.select} ${opts.fromWhere} ORDER BY ${opts.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`, [
      ...params,
      pageSize,
      (page - 1) * pageSize,
    ]),
    q.query<{ total: number }>(`SELECT count(*)::int AS total ${opts.fromWhere}`, params),
  ]);
  return { list: rows.rows, total: count.rows[0]?.total ?? 0, page, page_size: pageSize };
}
