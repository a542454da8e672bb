/** Test helper: a query client of its own (no cache shared between tests), connected to writes as the console's is. */
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { connectDataClient, createDataClient } from './client.js';

export function freshDataClient() {
  const client = createDataClient();
  const disconnect = connectDataClient(client);
  function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  }
  return { client, wrapper: Wrapper, disconnect };
}
