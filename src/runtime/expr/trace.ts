/** Recent expression results, for the dev-mode schema inspector. */
export interface TraceEntry {
  expression: string;
  value?: unknown;
  error?: string;
  at: number;
}

const LIMIT = 200;
const entries: TraceEntry[] = [];
const listeners = new Set<() => void>();
let enabled = false;

export function setTracing(on: boolean): void {
  enabled = on;
}

export function trace(entry: Omit<TraceEntry, 'at'>): void {
  if (!enabled && !entry.error) return;
  entries.push({ ...entry, at: Date.now() });
  if (entries.length > LIMIT) entries.splice(0, entries.length - LIMIT);
  listeners.forEach((l) => l());
}

export const traceEntries = (): readonly TraceEntry[] => entries;

export function onTrace(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
