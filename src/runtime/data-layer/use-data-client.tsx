/**
 * The query client a hook reads through: the one provided above it (the console's, at the root
 * of the signed-in console), else the RuntimeProvider's own (tests, the bench pages), else one
 * kept for hooks rendered with no provider at all (widget unit tests).
 */
import { QueryClientContext, QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useContext, useEffect, useState, type ReactNode } from 'react';
import { connectDataClient, createDataClient } from './client.js';

let fallback: QueryClient | undefined;

export function useDataClient(): QueryClient {
  const provided = useContext(QueryClientContext);
  if (provided) return provided;
  if (!fallback) {
    fallback = createDataClient();
    connectDataClient(fallback);
  }
  return fallback;
}

/** Provides a client of its own when none is provided above (connected to writes and sign-out while mounted). */
export function DataClientBoundary({ children }: { children: ReactNode }) {
  const provided = useContext(QueryClientContext);
  const [own] = useState(() => (provided ? null : createDataClient()));
  useEffect(() => (own ? connectDataClient(own) : undefined), [own]);
  return own ? <QueryClientProvider client={own}>{children}</QueryClientProvider> : <>{children}</>;
}
