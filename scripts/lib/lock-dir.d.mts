export function withLockDir(lock: string, opts: { staleMs: number; done: () => boolean }, fn: () => unknown): Promise<boolean>;
