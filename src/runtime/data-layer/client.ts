/**
 * The query client of the console (TanStack Query, docs/architecture.md "Client data"): its
 * defaults, and what a write and a sign-out do to its cache.
 *
 * - staleTime 30 s: a list, record, option list or home figure seen less than 30 s ago shows
 *   again from the cache without a request (back-navigation); older, it shows at once and
 *   reloads behind (the list's loading state says so). The remote options kept their replies
 *   30 s before, so pickers behave as they did.
 * - no retry, no refetch on focus or reconnect: one request per need, as before (the HTTP
 *   client shows each failure once); `networkMode: 'always'` sends requests whatever the
 *   browser thinks of the network, and the HTTP client reports the failure.
 * - a failure is not kept: an errored query loads again when it is next shown.
 * - a write (`POST <path>` through callApi, an upload) invalidates the keys of its resource —
 *   shown ones reload now — and marks every other key stale, so any page opened after a write
 *   asks again (a write can change what other pages show: a shop's name in a customer list).
 * - sign-out or another account clears the cache.
 */
import { QueryClient } from '@tanstack/react-query';
import { onDataEvent } from './events.js';
import { keyOfResource, resourceOf } from './keys.js';

export const STALE_MS = 30_000;
/** an unused entry is dropped after 5 minutes */
export const GC_MS = 5 * 60_000;

export function createDataClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: STALE_MS,
        gcTime: GC_MS,
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        networkMode: 'always',
      },
    },
  });
}

/** After a successful write to `path`: its resource's keys reload (shown ones now), all others are stale. */
export function invalidateAfterWrite(client: QueryClient, path: string): Promise<void> {
  const resource = resourceOf(path);
  return Promise.all([
    client.invalidateQueries({ predicate: (q) => keyOfResource(q.queryKey, resource) }),
    client.invalidateQueries({ predicate: (q) => !keyOfResource(q.queryKey, resource), refetchType: 'none' }),
  ]).then(() => undefined);
}

/** Connects a client to the runtime's data events (writes, sign-out); returns the disconnect. */
export function connectDataClient(client: QueryClient): () => void {
  return onDataEvent((e) => {
    if (e.kind === 'write') void invalidateAfterWrite(client, e.path).catch(() => undefined);
    else client.clear();
  });
}
