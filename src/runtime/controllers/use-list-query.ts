/**
 * A list's rows through the query client: the request of useListParams as the key (with the
 * schema's API), the previous page's rows shown while the next loads (`keepPreviousData`), and a
 * reply read as a page (`{ list, total, total_estimated }`) or a plain array.
 */
import { useMemo } from 'react';
import { useApiQuery } from '../data-layer/use-api-query.js';
import type { RuntimeEnv } from '../env.js';
import type { ListSchema } from '../types.js';
import type { Row } from './use-record-selection.js';

export interface ListPage {
  rows: Row[];
  total: number;
  /** the server estimated `total` (large tables, see docs/api.md) */
  totalEstimated: boolean;
}

export interface ListQuery extends ListPage {
  loading: boolean;
  error: unknown;
  /** replies (or failures) so far */
  loads: number;
  /** the rows shown are this request's reply, and nothing is loading */
  settled: boolean;
  refresh(): Promise<void>;
  refreshQuietly(): Promise<void>;
}

const NONE: Row[] = [];

/** A reply as rows and total. */
export function readPage(data: unknown): ListPage {
  if (Array.isArray(data)) return { rows: data as Row[], total: data.length, totalEstimated: false };
  const page = (data ?? {}) as { list?: Row[]; total?: number; total_estimated?: boolean };
  const rows = page.list ?? NONE;
  return { rows, total: page.total ?? rows.length, totalEstimated: page.total_estimated === true };
}

export function useListQuery(schema: ListSchema, env: RuntimeEnv, request: Record<string, unknown>, requestError: unknown): ListQuery {
  const q = useApiQuery({ http: env.http, api: schema.data.api, params: request, paramsError: requestError, keepPrevious: true });
  const page = useMemo(() => readPage(q.data), [q.data]);
  return { ...page, loading: q.loading, error: q.error, loads: q.loads, settled: q.settled, refresh: q.refresh, refreshQuietly: q.refreshQuietly };
}
