/**
 * In-page timing for the bench pages. A page calls `renderStart()` right before its render
 * call, then `waitForCount(selector, n)`: a MutationObserver marks `rows` as soon as the DOM
 * holds n matches (after React's commit), and `painted` after the next frame. The driver
 * (console.bench.ts) reads `window.__bench` once `done` is set.
 */
export interface BenchResult {
  done: boolean;
  /** render call → n elements in the DOM */
  render?: number;
  /** navigation start → n elements in the DOM */
  navigation?: number;
  /** render call → the frame after that was produced */
  painted?: number;
  count?: number;
  /** React commits until the rows were in the DOM (counted by the driver's DevTools hook) */
  commits?: number;
  error?: string;
  /** keystroke → next frame, one entry per key (form pages) */
  keys?: number[];
}

declare global {
  interface Window {
    __bench: BenchResult;
    __benchKeys?: { start(): void; results: number[] };
  }
}

window.__bench = { done: false };

export function renderStart(): void {
  performance.mark('render-start');
}

/** Resolves after the frame following `now` was produced (rAF, then a task after paint). */
export function nextFrame(): Promise<number> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => resolve(performance.now());
      ch.port2.postMessage(null);
    });
  });
}

export function waitForCount(selector: string, n: number, root: ParentNode = document): Promise<void> {
  return new Promise((resolve) => {
    const check = () => root.querySelectorAll(selector).length >= n;
    const finish = async () => {
      performance.mark('rows');
      const render = performance.measure('render', 'render-start', 'rows').duration;
      const navigation = performance.getEntriesByName('rows', 'mark')[0].startTime;
      const count = root.querySelectorAll(selector).length;
      const commits = (window as unknown as { __benchCommits?: number }).__benchCommits;
      const paintedAt = await nextFrame();
      const painted = paintedAt - performance.getEntriesByName('render-start', 'mark')[0].startTime;
      window.__bench = { ...window.__bench, render, navigation, painted, count, commits, done: true };
      resolve();
    };
    if (check()) {
      void finish();
      return;
    }
    const mo = new MutationObserver(() => {
      if (!check()) return;
      mo.disconnect();
      void finish();
    });
    mo.observe(document.body, { childList: true, subtree: true });
  });
}

/**
 * Keystroke latency: for each keydown, the time from the event's timestamp to the next frame
 * after the handlers ran. The driver types one key at a time and waits for the result.
 */
export function watchKeys(): void {
  const results: number[] = [];
  document.addEventListener(
    'keydown',
    (e) => {
      const t0 = e.timeStamp;
      void nextFrame().then((t1) => results.push(t1 - t0));
    },
    { capture: true },
  );
  window.__benchKeys = { start: () => void (results.length = 0), results };
}

export function fail(err: unknown): void {
  window.__bench = { ...window.__bench, done: true, error: err instanceof Error ? err.stack ?? err.message : String(err) };
}
