import type { JobKind } from './types.js';

/**
 * `system.noop`: does nothing but report progress. The queue bench measures jobs per second
 * and enqueue → start latency with it; tests use it to prove each job runs exactly once.
 */
export const noopKind: JobKind<{ steps?: number; marker?: string; failTimes?: number; inTx?: boolean }> = {
  kind: 'system.noop',
  title: () => 'No-op / 空任务',
  retryDelaySeconds: 1,
  async run(ctx) {
    const steps = ctx.job.data.steps ?? 0;
    if (ctx.job.data.failTimes && ctx.job.attempt <= ctx.job.data.failTimes) throw new Error(`planned failure ${ctx.job.attempt}`);
    const wait = () => new Promise((r) => setTimeout(r, 100));
    for (let i = 1; i <= steps; i++) {
      // `inTx`: each step's wait inside an open transaction (fault tests cut the database there)
      if (ctx.job.data.inTx) await ctx.db.tx(async (q) => (await q.query('SELECT 1'), await wait()));
      else await wait();
      await ctx.progress(i, steps);
    }
    if (ctx.job.data.marker) {
      await ctx.db.query(`INSERT INTO work_job_effect (marker, job_id) VALUES ($1, $2)`, [ctx.job.data.marker, ctx.job.id]);
    }
    return { steps, startedAt: ctx.now().toISOString() };
  },
};
