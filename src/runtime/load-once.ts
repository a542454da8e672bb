/**
 * A dynamic import (or any load) run at most once at a time: callers share the pending promise,
 * the value is kept once it arrives (`peek`), and a failed load — offline, a deploy replaced the
 * chunks — is forgotten, so the next call tries again.
 */
export interface LoadOnce<T> {
  (): Promise<T>;
  /** the value, once loaded */
  peek(): T | undefined;
}

export function loadOnce<T>(load: () => Promise<T>): LoadOnce<T> {
  let pending: Promise<T> | undefined;
  let value: { v: T } | undefined;
  const get = (() => {
    pending ??= load().then(
      (v) => {
        value = { v };
        return v;
      },
      (e: unknown) => {
        pending = undefined;
        throw e;
      },
    );
    return pending;
  }) as LoadOnce<T>;
  get.peek = () => value?.v;
  return get;
}
