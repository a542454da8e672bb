import { spawn, type ChildProcess } from 'node:child_process';
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

interface Started {
  proc: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * `npm start` as a person types it (npm's own CLI, then scripts/start.mjs, which checks both
 * builds and spawns the built server), in a process group of its own: stopped by signalling the
 * group (npm, the start script and the server all get SIGTERM; the server closes its database),
 * then waited for until no process of the group is left, so the next start finds the data dir free.
 */
function startNpmStart(env: Record<string, string>, cwd: string): Started {
  const npmCli = process.env.npm_execpath;
  const [cmd, args] = npmCli && /\.[cm]?js$/.test(npmCli) ? [process.execPath, [npmCli, 'start']] : ['npm', ['start']];
  const proc = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  const onData = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  const groupAlive = () => {
    try {
      process.kill(-proc.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  return {
    proc,
    output: () => out,
    async stop() {
      if (!proc.pid) return;
      try {
        process.kill(-proc.pid, 'SIGTERM');
      } catch {
        return; // the group is gone already
      }
      const t0 = performance.now();
      while (groupAlive()) {
        if (performance.now() - t0 > 30_000) {
          process.kill(-proc.pid, 'SIGKILL');
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

/** Spawn `node <args>` (or `npm start`) → first 200 from GET /api/common/config. */
async function timeToListen(ctx: SuiteContext, nodeArgs: string[] | 'npm start', env: Record<string, string>): Promise<Start> {
  const port = await freePort();
  const what = nodeArgs === 'npm start' ? nodeArgs : nodeArgs.join(' ');
  const childEnv = { ...env, PORT: String(port), HOST: '127.0.0.1', BENCH_PHASES: '1' };
  const t0 = performance.now();
  const child: Started = nodeArgs === 'npm start' ? startNpmStart(childEnv, ctx.root) : startNode(nodeArgs, childEnv, ctx.root);
  try {
    for (;;) {
      if (child.proc.exitCode !== null) throw new Error(`${what} exited before listening:\n${child.output().slice(-3000)}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/common/config`);
        if (res.status === 200) {
          const ms = performance.now() - t0;
          // (npm start: the server is a grandchild; its CPU is the built server's figure)
          const mainCpuMs = nodeArgs === 'npm start' ? null : mainThreadCpuMs(child.proc.pid);
          const line = child.output().split('\n').find((l) => l.startsWith('BENCH_PHASES '));
          return { ms, mainCpuMs, phases: line ? (JSON.parse(line.slice('BENCH_PHASES '.length)) as Record<string, unknown>) : null };
        }
      } catch {
        /* not listening yet */
      }
      if (performance.now() - t0 > 180_000) throw new Error(`${what} did not listen within 180 s`);
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
  const npmStart: Start[] = [];
  // a first start after a build or a new migration does the one-off work (migrations, the schema
  // memo, the demo seed's mark; through `npm start`, a console build when dist/ is stale): not
  // what is measured
  await timeToListen(ctx, 'npm start', data.env);
  const n = ctx.smoke ? 3 : 5;
  for (let i = 0; i < n; i++) {
    ours.push(await timeToListen(ctx, [SERVER_ENTRY], data.env));
    bare.push(await timeToListen(ctx, [path.join(ctx.root, 'bench/startup/bare-server.mjs')], {}));
    // `npm start` itself (npm, the build checks of scripts/start.mjs, the server): once in a smoke run
    if (i < (ctx.smoke ? 1 : n)) npmStart.push(await timeToListen(ctx, 'npm start', data.env));
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
  const ns = median(npmStart.map((s) => s.ms));
  figures.push({
    id: 'startup.npm-start',
    label: `\`npm start\` (npm, the build checks of scripts/start.mjs, the built server) to first 200 on ${where}`,
    unit: 'ms',
    value: round(ns, 0),
    baseline: round(b, 0),
    baselineLabel: 'node + bare Fastify with one route',
    ratio: ratioOf(ns, b),
    goal: { op: '<=', value: 1500, on: 'value' },
    detail: { starts: npmStart.map((s) => s.ms), phases: npmStart[Math.floor(npmStart.length / 2)]?.phases ?? null },
  });
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
    if (ctx.wants('startup.listen') || ctx.wants('startup.npm-start')) figures.push(...(await listenFigures(ctx)));
    return figures;
  },
};
