import fs from 'node:fs';
import path from 'node:path';
import { benchData } from '../api/data.js';
import { ensureServerBuilt, SERVER_ENTRY } from '../../scripts/lib/server-build.mjs';
import { freePort, startNode, startTsx } from '../lib/proc.js';
import { ratioOf, skipped, type Figure, type Suite, type SuiteContext } from '../lib/result.js';
import { median, round } from '../lib/stats.js';

interface SchemasRun {
  files: number;
  parseMs: number;
  loadMs: number;
  metaWarmMs: number;
}

async function schemasFigure(ctx: SuiteContext): Promise<Figure> {
  const id = 'startup.schemas';
  const label = 'validate every schema at server start (fresh process, meta-schemas compiled cold)';
  const goal = { op: '<=' as const, value: 300, on: 'value' as const };
  if (!fs.existsSync(path.join(ctx.root, 'server/schemas/index.ts'))) return skipped(id, label, 'ms', 'server/schemas has not landed', goal);
  const runs: SchemasRun[] = [];
  for (let i = 0; i < (ctx.smoke ? 1 : 5); i++) {
    const child = startTsx(path.join(ctx.root, 'bench/startup/schemas-child.ts'), [], {}, ctx.root);
    try {
      runs.push(await child.message<SchemasRun>('BENCH_SCHEMAS', 120_000));
    } finally {
      await child.stop();
    }
  }
  const load = median(runs.map((r) => r.loadMs));
  const parse = median(runs.map((r) => r.parseMs));
  return {
    id,
    label: `${label} — ${runs[0]?.files ?? 0} files`,
    unit: 'ms',
    value: round(load),
    baseline: round(parse, 2),
    baselineLabel: 'read + JSON.parse of the same files',
    ratio: ratioOf(load, parse),
    goal,
    detail: { runs },
  };
}

interface Start {
  /** spawn → first 200 (wall clock) */
  ms: number;
  /** CPU time of the child's main thread at that moment (Linux: /proc), null elsewhere */
  mainCpuMs: number | null;
  /** the server's own phases (BENCH_PHASES), ours only */
  phases: Record<string, unknown> | null;
}

/** Main-thread CPU ms of a process (utime + stime of its first thread); null off Linux. */
function mainThreadCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms (USER_HZ 100)
  } catch {
    return null;
  }
}

/** Spawn `node <args>` → first 200 from GET /api/common/config. */
async function timeToListen(ctx: SuiteContext, nodeArgs: string[], env: Record<string, string>): Promise<Start> {
  const port = await freePort();
  const t0 = performance.now();
  const child = startNode(nodeArgs, { ...env, PORT: String(port), HOST: '127.0.0.1', BENCH_PHASES: '1' }, ctx.root);
  try {
    for (;;) {
      if (child.proc.exitCode !== null) throw new Error(`${nodeArgs.join(' ')} exited before listening:\n${child.output().slice(-3000)}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/common/config`);
        if (res.status === 200) {
          const ms = performance.now() - t0;
          const mainCpuMs = mainThreadCpuMs(child.proc.pid);
          const line = child.output().split('\n').find((l) => l.startsWith('BENCH_PHASES '));
          return { ms, mainCpuMs, phases: line ? (JSON.parse(line.slice('BENCH_PHASES '.length)) as Record<string, unknown>) : null };
        }
      } catch {
        /* not listening yet */
      }
      if (performance.now() - t0 > 180_000) throw new Error(`${nodeArgs.join(' ')} did not listen within 180 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await child.stop();
  }
}

/**
 * The built server (`npm start` runs build/server/server.js) on the existing bench database, and
 * a bare Fastify with one route, both plain JavaScript under node, alternating. Two figures: the
 * wall clock (the goal) and the main thread's CPU time (steadier on a busy machine: the CI gate
 * judges its ratio, docs/performance.md "Regression gate").
 */
async function listenFigures(ctx: SuiteContext): Promise<Figure[]> {
  const data = await benchData(ctx);
  await ensureServerBuilt({ quiet: true });
  const ours: Start[] = [];
  const bare: Start[] = [];
  // a first start after a build or a new migration does the one-off work (migrations, the schema
  // memo, the demo seed's mark): not what is measured
  await timeToListen(ctx, [SERVER_ENTRY], data.env);
  for (let i = 0; i < (ctx.smoke ? 3 : 5); i++) {
    ours.push(await timeToListen(ctx, [SERVER_ENTRY], data.env));
    bare.push(await timeToListen(ctx, [path.join(ctx.root, 'bench/startup/bare-server.mjs')], {}));
  }
  const o = median(ours.map((s) => s.ms));
  const b = median(bare.map((s) => s.ms));
  const oc = ours.every((s) => s.mainCpuMs !== null) ? median(ours.map((s) => s.mainCpuMs!)) : null;
  const bc = bare.every((s) => s.mainCpuMs !== null) ? median(bare.map((s) => s.mainCpuMs!)) : null;
  const where = `an existing ${data.driver === 'pglite' ? 'PGlite data dir' : 'PostgreSQL database'} (${data.scale} data)`;
  const detail = { ours, bare, phases: ours[Math.floor(ours.length / 2)]?.phases ?? null };
  const figures: Figure[] = [
    {
      id: 'startup.listen',
      label: `server start (built) to first 200 on ${where}`,
      unit: 'ms',
      value: round(o, 0),
      baseline: round(b, 0),
      baselineLabel: 'node + bare Fastify with one route',
      ratio: ratioOf(o, b),
      goal: { op: '<=', value: 1500, on: 'value' },
      detail,
    },
  ];
  figures.push(
    oc === null || bc === null
      ? skipped('startup.listen.cpu', 'main-thread CPU to first 200', 'ms', 'needs /proc (Linux)')
      : {
          id: 'startup.listen.cpu',
          label: `main-thread CPU time from spawn to first 200 on ${where}`,
          unit: 'ms',
          value: round(oc, 0),
          baseline: round(bc, 0),
          baselineLabel: 'node + bare Fastify with one route',
          ratio: ratioOf(oc, bc),
          detail: { ours: ours.map((s) => s.mainCpuMs), bare: bare.map((s) => s.mainCpuMs) },
        },
  );
  return figures;
}

export const startupSuite: Suite = {
  id: 'startup',
  title: 'Start-up (schema validation, time to listening)',
  async run(ctx) {
    const figures: Figure[] = [];
    if (ctx.wants('startup.schemas')) figures.push(await schemasFigure(ctx));
    if (ctx.wants('startup.listen')) figures.push(...(await listenFigures(ctx)));
    return figures;
  },
};
