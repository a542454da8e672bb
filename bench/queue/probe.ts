/**
 * Scratch probe (issue 20, the engine's decline across samples): the engine alone in this process
 * on a fresh schema of DATABASE_URL, SAMPLES × N no-op jobs; after each sample the table counters
 * (pg_stat_user_tables / pg_statio_user_tables deltas per job) and EXPLAIN (ANALYZE, BUFFERS) of the
 * claim and final-write statements, generic and custom plan, in a rolled-back transaction
 * (EXPLAIN=1). ALONE=1: pg-boss alone instead (the bench's baseline); ALONE=both: an engine sample,
 * then a pg-boss-alone sample, in turn. KEEP=1 keeps the schema for psql. Findings:
 * docs/performance.md "The work engine", "Issue 20, the decline across samples".
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../server/db/migrate.js';
import { openPg } from '../../server/db/pg.js';
import { CLAIM_CTES, FINISH_SQL } from '../../server/jobs/batch.js';
import { JobEngine } from '../../server/jobs/engine.js';
import { noopKind } from '../../server/jobs/noop.js';

const url = process.env.DATABASE_URL!;
const N = Number(process.env.N ?? 2000);
const SAMPLES = Number(process.env.SAMPLES ?? 8);
const schema = `bp_${randomBytes(4).toString('hex')}`;
const bossSchema = `${schema}_boss`;
const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schema}`);
const db = await openPg(url, { schema });
await migrate(db);
const engine = new JobEngine({ db, kinds: [noopKind], concurrency: 8, bossSchema });
await engine.start();
const bossTable = `"${bossSchema}".job`;
const probe = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
await probe.connect();

const stats = async () => {
  const r = await admin.query(
    `SELECT s.schemaname || '.' || s.relname AS t, s.seq_scan, s.seq_tup_read, s.idx_scan, s.n_tup_upd, s.n_tup_hot_upd, s.n_live_tup, s.n_dead_tup,
            s.autovacuum_count, s.autoanalyze_count, io.heap_blks_hit + io.heap_blks_read AS heap, io.idx_blks_hit + io.idx_blks_read AS idx
       FROM pg_stat_user_tables s JOIN pg_statio_user_tables io USING (relid)
      WHERE s.schemaname IN ($1, $2) AND s.relname IN ('work_job', 'work_worker') OR (s.schemaname IN ($2, $3) AND s.relname LIKE 'j%')`,
    [schema, bossSchema, `${bossSchema}_alone`],
  );
  return Object.fromEntries(r.rows.map((x) => [x.t as string, x as Record<string, unknown>])) as Record<string, Record<string, unknown>>;
};

const claimText = `WITH ${CLAIM_CTES(bossTable, '$1', '$2', '$3')}`;
const finishText = FINISH_SQL(bossTable);
await probe.query(`PREPARE pc(text, int, text) AS ${claimText}`);
await probe.query(`PREPARE pf(bigint[], text[], text[], text[], text, text, uuid[], int) AS ${finishText}`);

const buffers = (plan: string) => {
  const m = [...plan.matchAll(/Buffers: shared hit=(\d+)(?: read=(\d+))?/g)][0];
  return m ? Number(m[1]) + Number(m[2] ?? 0) : 0;
};
async function explain(mode: string): Promise<string> {
  await probe.query('BEGIN');
  try {
    await probe.query(`SET LOCAL plan_cache_mode = ${mode}`);
    const q = { query: (s: string, v: unknown[] = []) => probe.query(s, v).then((r) => ({ rows: r.rows, affectedRows: r.rowCount ?? 0 })), exec: async () => undefined };
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push((await engine.enqueue(q as never, 'system.noop', { tag: 'probe' })).id);
    const c = await probe.query(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE pc('work', 8, 'probe-worker')`);
    const claimPlan = c.rows.map((r) => r['QUERY PLAN']).join('\n');
    const boss = (await probe.query(`SELECT boss_id FROM work_job WHERE id = ANY($1)`, [ids])).rows.map((r) => r.boss_id);
    const lit = (xs: unknown[]) => probe.escapeLiteral(`{${xs.map((x) => (x === null ? 'NULL' : `"${String(x)}"`)).join(',')}}`);
    const f = await probe.query(
      `EXPLAIN (ANALYZE, BUFFERS) EXECUTE pf(${lit(ids)}, ${lit(ids.map(() => 'done'))}, ${lit(ids.map(() => null))}, ${lit(ids.map(() => ''))}, 'probe-worker', 'work', ${lit(boss)}, 8)`,
    );
    const finishPlan = f.rows.map((r) => r['QUERY PLAN']).join('\n');
    return `claim ${buffers(claimPlan)} buffers, finish ${buffers(finishPlan)}\n--- claim (${mode})\n${claimPlan}\n--- finish (${mode})\n${finishPlan}`;
  } finally {
    await probe.query('ROLLBACK');
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** N no-op jobs enqueued in one transaction: jobs/s from its commit to the last one done */
async function engineSample(tag: string): Promise<number> {
  const ids = await db.tx(async (q) => {
    const out: number[] = [];
    for (let i = 0; i < N; i++) out.push((await engine.enqueue(q, 'system.noop', { tag })).id);
    return out;
  });
  const t0 = performance.now();
  while (Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.work_job WHERE id BETWEEN $1 AND $2 AND state = 'done'`, [ids[0], ids[N - 1]])).rows[0].n) < N) await pause(5);
  return N / ((performance.now() - t0) / 1000);
}

// ALONE=1: pg-boss alone instead (the bench's baseline: fetch 8, complete them, no work_job row)
if (process.env.ALONE) {
  const { createBoss } = await import('../../server/jobs/boss.js');
  const { boss, detach } = createBoss(db, { schema: `${bossSchema}_alone`, supervise: false });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue('alone');
  let before = await stats();
  for (let s = 0; s < SAMPLES; s++) {
    // ALONE=both: an engine sample before each, as the bench takes them in turn
    if (process.env.ALONE === 'both') {
      const b0 = await stats();
      const r = await engineSample(`e${s}`);
      await pause(Number(process.env.SETTLE_MS ?? 1500));
      const a0 = await stats();
      const lines = Object.entries(a0)
        .filter(([t]) => !t.startsWith(`${bossSchema}_alone.`) && !t.endsWith('work_worker'))
        .map(([t, a]) => {
          const d = (k: string) => Number(a[k]) - Number(b0[t]?.[k] ?? 0);
          return `  ${t.slice(-12)}: seq_scan +${d('seq_scan')} seq_tup_read/job ${(d('seq_tup_read') / N).toFixed(1)} heap+idx buf/job ${(d('heap') / N).toFixed(1)}+${(d('idx') / N).toFixed(1)} dead ${a.n_dead_tup} av ${a.autovacuum_count}`;
        });
      console.log(`engine sample ${s}: ${Math.round(r)} jobs/s\n${lines.join('\n')}`);
    }
    await boss.insert(Array.from({ length: N }, () => ({ name: 'alone', data: { tag: 'rate' } })));
    const t0 = performance.now();
    for (;;) {
      const jobs = await boss.fetch('alone', { batchSize: 8 });
      if (!jobs.length) break;
      await boss.complete('alone', jobs.map((j) => j.id));
    }
    const rate = N / ((performance.now() - t0) / 1000);
    await pause(Number(process.env.SETTLE_MS ?? 1500));
    const after = await stats();
    const lines = Object.entries(after)
      .filter(([t]) => t.startsWith(`${bossSchema}_alone.`))
      .map(([t, a]) => {
        const d = (k: string) => Number(a[k]) - Number(before[t]?.[k] ?? 0);
        return `  ${t.slice(-12)}: seq_scan +${d('seq_scan')} seq_tup_read/job ${(d('seq_tup_read') / N).toFixed(1)} heap+idx buf/job ${(d('heap') / N).toFixed(1)}+${(d('idx') / N).toFixed(1)} live ${a.n_live_tup} dead ${a.n_dead_tup} av ${a.autovacuum_count} aa ${a.autoanalyze_count}`;
      });
    console.log(`alone sample ${s}: ${Math.round(rate)} jobs/s\n${lines.join('\n')}`);
    before = after;
  }
  await boss.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => undefined);
  detach();
  await admin.query(`DROP SCHEMA IF EXISTS ${bossSchema}_alone CASCADE`);
}
let before = await stats();
for (let s = 0; s < (process.env.ALONE ? 0 : SAMPLES); s++) {
  const ids = await db.tx(async (q) => {
    const out: number[] = [];
    for (let i = 0; i < N; i++) out.push((await engine.enqueue(q, 'system.noop', { tag: `s${s}` })).id);
    return out;
  });
  const t0 = performance.now();
  while (Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.work_job WHERE id BETWEEN $1 AND $2 AND state = 'done'`, [ids[0], ids[N - 1]])).rows[0].n) < N) await pause(5);
  const rate = N / ((performance.now() - t0) / 1000);
  await pause(Number(process.env.SETTLE_MS ?? 1500)); // the backends' counters reach the shared stats at most once a second
  const after = await stats();
  const per = Object.entries(after).map(([t, a]) => {
    const b = before[t] ?? {};
    const d = (k: string) => Number(a[k]) - Number(b[k] ?? 0);
    return `  ${t}: seq_scan +${d('seq_scan')} seq_tup_read/job ${(d('seq_tup_read') / N).toFixed(1)} idx_scan/job ${(d('idx_scan') / N).toFixed(2)} heap+idx buf/job ${(d('heap') / N).toFixed(1)}+${(d('idx') / N).toFixed(1)} upd ${d('n_tup_upd')} hot ${d('n_tup_hot_upd')} live ${a.n_live_tup} dead ${a.n_dead_tup} av ${a.autovacuum_count} aa ${a.autoanalyze_count}`;
  });
  before = after;
  console.log(`sample ${s}: ${Math.round(rate)} jobs/s\n${per.join('\n')}`);
  if (process.env.EXPLAIN) for (const mode of ['force_generic_plan', 'force_custom_plan']) console.log(await explain(mode));
  before = await stats();
}
await engine.stop();
await probe.end();
await db.close();
if (process.env.KEEP) console.log(`kept schema ${schema}`);
else {
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.query(`DROP SCHEMA ${bossSchema} CASCADE`);
}
await admin.end();
