// A lock directory (mkdir is atomic) that keeps parallel processes from doing one thing at once:
// building the console or the server while test files start side by side. A lock older than
// `staleMs` is left over from a killed process and is taken over.
import { mkdirSync, rmSync, statSync } from 'node:fs';

/** Runs `fn` holding `lock`, unless `done()` holds first (checked before and while waiting). */
export async function withLockDir(lock, { staleMs, done }, fn) {
  if (done()) return false;
  for (;;) {
    try {
      mkdirSync(lock, { recursive: false });
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > staleMs) rmSync(lock, { recursive: true, force: true });
      } catch {
        /* released meanwhile */
      }
      await new Promise((r) => setTimeout(r, 250));
      if (done()) return false;
    }
  }
  try {
    if (done()) return false;
    await fn();
    return true;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
