/** Renderers publish their live data to the dev-mode inspector through this context. */
import { createContext, useContext, useEffect } from 'react';

export interface InspectSink {
  publish(data: Record<string, unknown>): void;
}

export const InspectContext = createContext<InspectSink | null>(null);

export function useInspect(data: Record<string, unknown>): void {
  const sink = useContext(InspectContext);
  const key = sink ? safeKey(data) : '';
  useEffect(() => {
    sink?.publish(data);
  }, [sink, key]); // eslint-disable-line react-hooks/exhaustive-deps -- the data by value (its key), not the object's identity
}

function safeKey(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return String(Math.random());
  }
}
