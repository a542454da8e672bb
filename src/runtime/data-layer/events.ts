/**
 * What the data layer hears about (src/runtime/data-layer/client.ts): a successful write (`POST
 * <path>`, an upload) and the end of a session (sign-out, another account). The runtime emits
 * them where they happen (api.ts, actions.ts, session-data.ts); the query client of the console
 * (or of a RuntimeProvider outside it) listens. No React, no query library here, so the emitters
 * stay light and the sign-in page never loads the query code.
 */
export type DataEvent = { kind: 'write'; path: string } | { kind: 'clear' };

const listeners = new Set<(event: DataEvent) => void>();

/** Listens; returns the function that stops listening. */
export function onDataEvent(listener: (event: DataEvent) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Tells every listener; a listener that throws does not fail the write that was reported. */
export function emitDataEvent(event: DataEvent): void {
  for (const l of [...listeners]) {
    try {
      l(event);
    } catch (e) {
      console.error('data event listener failed', e);
    }
  }
}
