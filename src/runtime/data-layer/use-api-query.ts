/**
 * One read of a schema's API through the query client (list data, a detail record): the key is
 * the API ref and the parameters sent, the request is cancelled through the query's AbortSignal
 * when nobody needs it any more, and the first request starts while the component renders for
 * the first time (the reply is on its way while the page shell draws).
 *
 * Two ways to reload: `refresh()` shows the loading state; `refreshQuietly()` (the live refresh
 * of `refreshWhile`, a parent page's reload) does not, keeps what is shown until the reply is
 * in, and keeps it when the reload fails. `loads` counts replies (or failures) shown so far.
 */
import { hashKey, keepPreviousData, useQuery, type QueryFunctionContext } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { HttpPort } from '../env.js';
import { apiKey, readApi, type ApiKey } from './keys.js';
import { useDataClient } from './use-data-client.js';

export interface ApiQueryOptions {
  http: HttpPort;
  /** "GET thing/list" */
  api: string;
  /** the parameters to send */
  params: Record<string, unknown>;
  /** why the parameters could not be worked out (a failing expression): shown as the error, nothing sent */
  paramsError?: unknown;
  /** while the next key loads, show the previous key's reply (a list's next page) */
  keepPrevious?: boolean;
}

export interface ApiQuery {
  data: unknown;
  loading: boolean;
  error: unknown;
  /** replies (or failures) shown so far */
  loads: number;
  /** the reply shown is this key's own (not the previous key's while it loads) and no request is under way */
  settled: boolean;
  refresh(): Promise<void>;
  refreshQuietly(): Promise<void>;
}

/** Counts changes of `stamp` that stand for a reply (not "nothing yet"). */
function useReplyCount(stamp: string, hasReply: boolean): number {
  const [seen, setSeen] = useState(() => ({ stamp, n: hasReply ? 1 : 0 }));
  if (seen.stamp !== stamp) {
    const next = { stamp, n: hasReply ? seen.n + 1 : seen.n };
    setSeen(next);
    return next.n;
  }
  return seen.n;
}

export function useApiQuery(opts: ApiQueryOptions): ApiQuery {
  const client = useDataClient();
  const paramsError = opts.paramsError ?? null;
  const queryKey = apiKey(opts.api, opts.params);
  const hash = hashKey(queryKey);
  // the key being reloaded quietly (its queryFn keeps the shown reply when that reload fails)
  const quietRef = useRef<string | null>(null);
  const [quietHash, setQuietHash] = useState<string | null>(null);
  const { http } = opts;
  const queryFn = useCallback(
    async ({ queryKey: key, signal }: QueryFunctionContext<ApiKey>) => {
      const quiet = quietRef.current === hashKey(key);
      try {
        return await readApi<unknown>(http, key[1], key[2], signal);
      } catch (e) {
        const shown = client.getQueryData(key);
        if (quiet && !signal.aborted && shown !== undefined) return shown;
        throw e;
      }
    },
    [http, client],
  );
  const options = { queryKey, queryFn, enabled: !paramsError, placeholderData: opts.keepPrevious ? keepPreviousData : undefined };

  // the first request starts during the first render, not after the first commit
  useState(() => {
    if (!paramsError) void client.prefetchQuery({ queryKey, queryFn });
  });
  const q = useQuery(options, client);

  const refetchRef = useRef(q.refetch);
  refetchRef.current = q.refetch;
  const hashRef = useRef(hash);
  hashRef.current = hash;

  // joins a request already under way (the one a write's invalidation started), else starts one
  const refresh = useCallback(async () => {
    quietRef.current = null;
    setQuietHash(null);
    await refetchRef.current({ cancelRefetch: false });
  }, []);
  const refreshQuietly = useCallback(async () => {
    const h = hashRef.current;
    quietRef.current = h;
    setQuietHash(h);
    try {
      await refetchRef.current({ cancelRefetch: false });
    } finally {
      if (quietRef.current === h) {
        quietRef.current = null;
        setQuietHash(null);
      }
    }
  }, []);

  const loads = useReplyCount(`${hash}|${q.dataUpdatedAt}|${q.errorUpdatedAt}`, q.dataUpdatedAt > 0 || q.errorUpdatedAt > 0 || !!paramsError);
  if (paramsError) return { data: undefined, loading: false, error: paramsError, loads, settled: true, refresh, refreshQuietly };
  return {
    data: q.data,
    loading: q.isFetching && quietHash !== hash,
    error: q.error,
    loads,
    settled: q.isSuccess && !q.isPlaceholderData && !q.isFetching,
    refresh,
    refreshQuietly,
  };
}
