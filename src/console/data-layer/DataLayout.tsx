/**
 * The signed-in console: the main layout inside the console's query client. It sits here, at the
 * root of everything signed in, and not above /login: the query library (≈10 KiB gzip) travels
 * with the layout's chunk, and the sign-in page, which reads nothing through it, stays as small
 * as it was (docs/architecture.md "Client data").
 */
import { QueryClientProvider } from '@tanstack/react-query';
import MainLayout from '../layout/MainLayout.js';
import { consoleQueryClient } from './query-client.js';

export default function DataLayout() {
  return (
    <QueryClientProvider client={consoleQueryClient}>
      <MainLayout />
    </QueryClientProvider>
  );
}
