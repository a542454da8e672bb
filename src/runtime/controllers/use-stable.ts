/**
 * A value that keeps its identity while its JSON is the same: params and filters rebuilt on every
 * render (from the URL, from a parent's props) compared by value, so memos and effects that
 * depend on them run when they change, not when a new object with the same content arrives.
 */
import { useState } from 'react';

export function useStable<T>(value: T): T {
  const key = JSON.stringify(value) ?? '';
  const [kept, setKept] = useState({ key, value });
  if (kept.key !== key) {
    // adjusting state while rendering (React re-renders at once, before children)
    setKept({ key, value });
    return value;
  }
  return kept.value;
}
