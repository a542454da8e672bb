// Entry of the parse worker thread. The server runs its TypeScript through tsx (`node --import
// tsx`), but on Node 20 a worker does not inherit that loader: register it here, then load the
// worker module (`workerData.entry`, a .ts file beside this one, or .js once compiled).
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
