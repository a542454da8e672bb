/**
 * Search latency less at the mercy of a loaded machine (issue 21's p50 ≤ 20 ms at 100k chunks):
 * each question's search is run `runs` times and its fastest run kept (what the search costs when
 * it is not kept waiting for a core), and the statements of the slowest such search are timed one
 * by one and the slowest of them EXPLAINed (ANALYZE) — the query plan the figure rests on.
 */
import type { Queryable } from '../../server/db/db.js';
import { searchKnowledge } from '../../server/ai/retrieval/search.js';
import type { SqlDb } from '../../server/db/sql-db.js';
import { quantile } from '../lib/stats.js';

export interface BestOf {
  /** p50 / p99 over the questions of each one's fastest search */
  p50: number | null;
  p99: number | null;
  questions: number;
  runs: number;
  /** the slowest question's statements, each its fastest of `runs`, slowest first (ms, first 120 characters) */
  statements: Array<{ ms: number; sql: string }>;
  /** EXPLAIN ANALYZE of the slowest statement (its first 40 lines) */
  plan: string[];
}

/** A Queryable that records the statements it runs. */
function recording(db: Queryable, into: Array<{ sql: string; params: unknown[] }>): Queryable {
  return {
    query: (sql: string, params?: unknown[]) => {
      into.push({ sql, params: params ?? [] });
      return db.query(sql, params);
    },
  } as Queryable;
}

export async function bestOfLatency(db: SqlDb, qs: Array<{ question: string; shopId: number }>, runs = 5, max = 60): Promise<BestOf> {
  const picked = qs.filter((_, i) => i % Math.max(1, Math.floor(qs.length / max)) === 0).slice(0, max);
  const best: number[] = [];
  let slowest = { ms: -1, q: picked[0] };
  for (const q of picked) {
    let b = Infinity;
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      await searchKnowledge(db, { query: q.question, shopId: q.shopId, limit: 5, perSource: 1, sync: false });
      b = Math.min(b, performance.now() - t0);
    }
    best.push(b);
    if (b > slowest.ms) slowest = { ms: b, q };
  }
  const statements: BestOf['statements'] = [];
  let plan: string[] = [];
  if (slowest.q) {
    const rec: Array<{ sql: string; params: unknown[] }> = [];
    await searchKnowledge(recording(db, rec), { query: slowest.q.question, shopId: slowest.q.shopId, limit: 5, perSource: 1, sync: false });
    const timed: Array<{ ms: number; sql: string; params: unknown[] }> = [];
    for (const s of rec) {
      let b = Infinity;
      for (let r = 0; r < runs; r++) {
        const t0 = performance.now();
        await db.query(s.sql, s.params);
        b = Math.min(b, performance.now() - t0);
      }
      timed.push({ ms: Math.round(b * 100) / 100, sql: s.sql, params: s.params });
    }
    timed.sort((a, b) => b.ms - a.ms);
    statements.push(...timed.map((t) => ({ ms: t.ms, sql: t.sql.replace(/\s+/g, ' ').slice(0, 120) })));
    if (timed[0]) {
      const r = await db.query<Record<string, string>>(`EXPLAIN (ANALYZE, COSTS OFF) ${timed[0].sql}`, timed[0].params);
      plan = r.rows.map((x) => Object.values(x)[0]).slice(0, 40);
    }
  }
  return { p50: quantile(best, 0.5), p99: quantile(best, 0.99), questions: picked.length, runs, statements, plan };
}
