import fs from 'node:fs';
import path from 'node:path';
import { benchData } from '../api/data.js';
import { freePort, startTsx } from '../lib/proc.js';
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

/** Spawn → first 200 from GET /api/common/config. */
async function timeToListen(ctx: SuiteContext, script: string, env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = startTsx(script, [], { ...env, PORT: String(port), HOST: '127.0.0.1' }, ctx.root);
  try {
    for (;;) {
      if (child.proc.exitCode !== null) throw new Error(`${script} exited before listening:\n${child.output().slice(-3000)}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/common/config`);
        if (res.status === 200) return performance.now() - t0;
      } catch {
        /* not listening yet */
      }
      if (performance.now() - t0 > 180_000) throw new Error(`${script} did not listen within 180 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await child.stop();
  }
}

async function listenFigure(ctx: SuiteContext): Promise<Figure> {
  const data = await benchData(ctx);
  const ours: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < (ctx.smoke ? 1 : 3); i++) {
    ours.push(await timeToListen(ctx, path.join(ctx.root, 'server/server.ts'), data.env));
    bare.push(await timeToListen(ctx, path.join(ctx.root, 'bench/startup/bare-server.ts'), {}));
  }
  const o = median(ours);
  const b = median(bare);
  // where the time goes: the same steps as server.ts, timed one by one in a child
  const child = startTsx(path.join(ctx.root, 'bench/startup/phases-child.ts'), [], data.env, ctx.root);
  let phases: Record<string, number> | null = null;
  try {
    phases = await child.message<Record<string, number>>('BENCH_PHASES', 180_000);
  } catch (err) {
    ctx.log(`start-up phases not measured: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  } finally {
    await child.stop();
  }
  return {
    id: 'startup.listen',
    label: `server start to first reply on an existing ${data.driver === 'pglite' ? 'PGlite data dir' : 'PostgreSQL database'} (${data.scale} data)`,
    unit: 'ms',
    value: round(o, 0),
    baseline: round(b, 0),
    baselineLabel: 'tsx + bare Fastify with one route',
    ratio: ratioOf(o, b),
    detail: { ours, bare, phases },
  };
}

export const startupSuite: Suite = {
  id: 'startup',
  title: 'Start-up (schema validation, time to listening)',
  async run(ctx) {
    const figures: Figure[] = [];
    if (ctx.wants('startup.schemas')) figures.push(await schemasFigure(ctx));
    if (ctx.wants('startup.listen')) figures.push(await listenFigure(ctx));
    return figures;
  },
};
