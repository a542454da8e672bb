/**
 * The API figures: each a GET the console really makes (a filter and a sort), measured through
 * the app and against its own page query run bare. `deep` takes its page from page 1's total,
 * so it lands in the middle of the matching rows whatever the data size. It runs last: on PGlite
 * its slow queries queue up in the server and would spoil the figure measured after it.
 */
export interface ApiCase {
  id: string;
  label: string;
  path: string;
  query: Record<string, string | number>;
  /** compute the page from the first case's total: half-way through the matching rows */
  deepOf?: string;
}

export const API_CASES: ApiCase[] = [
  {
    id: 'shop-list.page1',
    label: 'GET shop/list env=prod, sort created_at desc, page 1',
    path: 'shop/list',
    query: { env: 'prod', sort_by: 'created_at', sort_order: 'desc', page: 1, page_size: 10 },
  },
  {
    id: 'order-list.filtered',
    label: 'GET order list financial_status=paid, newest first, page 1',
    path: process.env.BENCH_ORDER_PATH ?? 'order/list',
    query: { financial_status: 'paid', sort_by: 'created_at', sort_order: 'desc', page: 1, page_size: 10 },
  },
  {
    id: 'shop-list.deep',
    label: 'GET shop/list env=prod, sort created_at desc, deep page',
    path: 'shop/list',
    query: { env: 'prod', sort_by: 'created_at', sort_order: 'desc', page_size: 10 },
    deepOf: 'shop-list.page1',
  },
];

export const LIST_METRICS = ['rps', 'p50', 'p99'] as const;

export const queryString = (q: Record<string, string | number>): string =>
  new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
