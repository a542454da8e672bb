import { makeRows, pageOf } from './data.js';

/**
 * The in-memory API every bench page reads from (no network, so the figures show rendering
 * only). Resolves on the next task, as a real reply would.
 */
export function fetchPage(page: number, pageSize: number, total: number): Promise<ReturnType<typeof pageOf>> {
  return new Promise((resolve) => setTimeout(() => resolve(pageOf(total, page, pageSize)), 0));
}

export function fetchAll(n: number): Promise<ReturnType<typeof makeRows>> {
  return new Promise((resolve) => setTimeout(() => resolve(makeRows(n)), 0));
}

/** Page size and total a page was opened with: `?rows=100&total=100000`. */
export function sizeFromUrl(defaultRows: number): { rows: number; total: number } {
  const q = new URLSearchParams(location.search);
  const rows = Number(q.get('rows') ?? defaultRows);
  return { rows, total: Number(q.get('total') ?? Math.max(rows, 100_000)) };
}
