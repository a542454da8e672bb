import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';

/**
 * `--profile`: one load of a bench page under the V8 sampling profiler (CDP), unminified build.
 * Writes `<name>.cpuprofile` (open it in Chrome DevTools → Performance, or speedscope) and
 * returns the functions with the most self time, for docs/performance.md.
 */
interface CpuNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: CpuNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  top: Array<{ fn: string; where: string; selfMs: number }>;
  byFile: Array<{ where: string; selfMs: number }>;
}

export async function profilePage(browser: Browser, url: string, outDir: string, name: string): Promise<ProfileSummary> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url);
    await page.waitForFunction(() => window.__bench?.done === true, null, { timeout: 120_000 });
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `${name}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    return { file, ...summarise(profile) };
  } finally {
    await context.close();
  }
}

export function summarise(p: CpuProfile): Omit<ProfileSummary, 'file'> {
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const byFn = new Map<string, { fn: string; where: string; selfMs: number }>();
  const byFile = new Map<string, number>();
  let totalMs = 0;
  for (const n of p.nodes) {
    const ms = self.get(n.id) ?? 0;
    if (!ms) continue;
    const fn = n.callFrame.functionName || '(anonymous)';
    if (fn === '(idle)' || fn === '(program)') continue;
    totalMs += ms;
    const where = n.callFrame.url ? `${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}` : '(native)';
    const key = `${fn}@${where}`;
    const e = byFn.get(key) ?? { fn, where, selfMs: 0 };
    e.selfMs += ms;
    byFn.set(key, e);
    const f = n.callFrame.url ? n.callFrame.url.split('/').pop()! : fn.startsWith('(') ? fn : '(native)';
    byFile.set(f, (byFile.get(f) ?? 0) + ms);
  }
  const r = (n: number) => Math.round(n * 10) / 10;
  return {
    totalMs: r(totalMs),
    top: [...byFn.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, 25).map((e) => ({ ...e, selfMs: r(e.selfMs) })),
    byFile: [...byFile.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([where, ms]) => ({ where, selfMs: r(ms) })),
  };
}
