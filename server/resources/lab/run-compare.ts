/**
 * `GET <task>/compare?a=&b=`: two runs of the same dataset side by side, question by question
 * (docs/modules/lab.md "Comparing runs"). Run `a` is compared with run `b` (the baseline; by
 * default the newest other run of the same dataset that has results; none → an empty
 * comparison with `b: null`): a question is `better`
 * when a passes and b does not, or both pass or both fail and a's score is at least one point
 * higher; `worse` the other way round; `same` otherwise; `only_a` / `only_b` when one run has
 * not answered it. Each run says what it ran (its pinned prompt version, its assistant), its
 * errors and cost, and each row what each answer cost: two runs of one dataset pinned to two
 * prompt versions are the versions compared side by side (issue 21).
 */
import type { Queryable } from '../../db/db.js';
import { Type, type Static } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { invalid, notFound } from '../../http/errors.js';
import { Nullable, StringEnum } from '../../http/typebox.js';
import { Id } from '../engine/schemas.js';
import type { TaskKeys } from './keys.js';

export const CHANGES = ['better', 'worse', 'same', 'only_a', 'only_b'] as const;

const int = Type.Integer();
const num = Type.Number();
const str = Type.String();

const RunSummary = Type.Object({
  id: int,
  name: str,
  status: str,
  dataset_id: int,
  done: int,
  total: int,
  passed: int,
  pass_rate: Nullable(num),
  avg_score: Nullable(num),
  errors: int,
  cost: num,
  /** the prompt version the run pinned ("name vN"), its assistant: what was compared */
  prompt_version_label: Nullable(str),
  assistant_name: Nullable(str),
});
type RunSummary = Static<typeof RunSummary>;

const CompareRow = Type.Object({
  sample_index: int,
  input: str,
  expected: str,
  a_output: Nullable(str),
  a_score: Nullable(num),
  a_passed: Nullable(Type.Boolean()),
  a_scores: Nullable(str),
  a_cost: Nullable(num),
  b_output: Nullable(str),
  b_score: Nullable(num),
  b_passed: Nullable(Type.Boolean()),
  b_scores: Nullable(str),
  b_cost: Nullable(num),
  change: StringEnum(CHANGES),
});
type CompareRow = Static<typeof CompareRow>;

const CompareReply = Type.Object({
  a: RunSummary,
  b: Nullable(RunSummary),
  summary: Type.Object(Object.fromEntries(CHANGES.map((c) => [c, int])) as Record<(typeof CHANGES)[number], typeof int>),
  list: Type.Array(CompareRow),
  total: int,
});

/** x = run a's result, y = run b's (FULL JOIN on the sample) */
const CHANGE_SQL = `CASE WHEN y.id IS NULL THEN 'only_a' WHEN x.id IS NULL THEN 'only_b'
     WHEN x.passed AND NOT y.passed THEN 'better' WHEN y.passed AND NOT x.passed THEN 'worse'
     WHEN COALESCE(x.score, 0) >= COALESCE(y.score, 0) + 1 THEN 'better'
     WHEN COALESCE(y.score, 0) >= COALESCE(x.score, 0) + 1 THEN 'worse'
     ELSE 'same' END`;

const scoresText = (alias: string) =>
  `(SELECT string_agg((e->>'scorer') || ' ' || COALESCE(round((e->>'score')::numeric, 2)::text, '–'), ' · ') FROM jsonb_array_elements(${alias}.scores) e)`;

/** the number of questions of each change (0 for a change none has) */
const countsOf = (counts: Record<string, number>) =>
  Object.fromEntries(CHANGES.map((ch) => [ch, Number(counts[ch] ?? 0)])) as Record<(typeof CHANGES)[number], number>;

export function compareRoute(a: { name: string; table: string; keys: TaskKeys }): RouteDef {
  const summaryOf = async (db: Queryable, id: number): Promise<RunSummary | null> => {
    const r = await db.query<RunSummary>(
      `SELECT id, name, status, dataset_id, done, total, passed,
              CASE WHEN done > 0 THEN round(passed * 100.0 / done, 1)::float8 END AS pass_rate, avg_score::float8 AS avg_score,
              errors, cost::float8 AS cost,
              (SELECT v.name || ' v' || v.version FROM prompt_version v WHERE v.id = t.prompt_version_id) AS prompt_version_label,
              (SELECT c.name FROM chat_assistant c WHERE c.id = t.assistant_id) AS assistant_name
         FROM ${a.table} t WHERE id = $1`,
      [id],
    );
    return r.rows[0] ?? null;
  };
  return route({
    method: 'GET',
    path: `${a.name}/compare`,
    access: { permission: [a.keys.result, a.keys.detail] },
    summary:
      'Two runs of the same dataset question by question: run a against run b (default: the newest other run of the dataset with results); ' +
      'each question better / worse / same / only_a / only_b, with both answers and scores; paged, filter by `change`',
    query: Type.Object(
      {
        a: Id,
        b: Type.Optional(Id),
        change: Type.Optional(StringEnum(CHANGES)),
        page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
        page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
      },
      { additionalProperties: false },
    ),
    reply: CompareReply,
    handler: async ({ db, query: q }) => {
      const runA = await summaryOf(db, q.a);
      if (!runA) throw notFound(a.name);
      let bId = q.b;
      if (bId === undefined) {
        const r = await db.query<{ id: number }>(
          `SELECT id FROM ${a.table} WHERE dataset_id = $1 AND id <> $2 AND done > 0 ORDER BY id DESC LIMIT 1`,
          [runA.dataset_id, runA.id],
        );
        bId = r.rows[0]?.id;
        // nothing to compare with yet: an empty comparison (the page shows "no data")
        if (bId === undefined) return { a: runA, b: null, summary: countsOf({}), list: [], total: 0 };
      }
      const runB = await summaryOf(db, bId);
      if (!runB) throw invalid([{ field: 'b', message: `task ${bId} does not exist / 任务不存在` }]);
      if (runB.dataset_id !== runA.dataset_id) {
        throw invalid([{ field: 'b', message: 'only runs of the same dataset can be compared / 只能对比同一数据集的运行' }]);
      }
      const size = q.page_size ?? 20;
      const offset = ((q.page ?? 1) - 1) * size;
      const r = await db.query<CompareRow & { counts: Record<string, number> | null; total: number }>(
        `WITH pairs AS (
           SELECT COALESCE(x.sample_index, y.sample_index) AS sample_index, COALESCE(x.input, y.input) AS input,
                  COALESCE(x.expected, y.expected) AS expected,
                  x.output AS a_output, x.score::float8 AS a_score, x.passed AS a_passed, ${scoresText('x')} AS a_scores, x.cost::float8 AS a_cost,
                  y.output AS b_output, y.score::float8 AS b_score, y.passed AS b_passed, ${scoresText('y')} AS b_scores, y.cost::float8 AS b_cost,
                  ${CHANGE_SQL} AS change
             FROM (SELECT * FROM ${a.table}_result WHERE task_id = $1) x
             FULL JOIN (SELECT * FROM ${a.table}_result WHERE task_id = $2) y ON y.sample_index = x.sample_index
         ), counted AS (SELECT change, count(*)::int AS n FROM pairs GROUP BY change)
         SELECT p.*, (SELECT COALESCE(json_object_agg(change, n), '{}'::json) FROM counted) AS counts, count(*) OVER ()::int AS total
           FROM pairs p WHERE $3::text IS NULL OR p.change = $3
          ORDER BY p.sample_index LIMIT $4 OFFSET $5`,
        [runA.id, runB.id, q.change ?? null, size, offset],
      );
      let counts = (r.rows[0]?.counts ?? null) as Record<string, number> | null;
      let total = Number(r.rows[0]?.total ?? 0);
      if (!counts) {
        // an empty page (past the end, or no row of that change): the counts on their own
        const c = await db.query<{ change: string; n: number }>(
          `SELECT ${CHANGE_SQL} AS change, count(*)::int AS n
             FROM (SELECT * FROM ${a.table}_result WHERE task_id = $1) x
             FULL JOIN (SELECT * FROM ${a.table}_result WHERE task_id = $2) y ON y.sample_index = x.sample_index
            GROUP BY 1`,
          [runA.id, runB.id],
        );
        counts = Object.fromEntries(c.rows.map((x) => [x.change, Number(x.n)]));
        total = q.change ? Number(counts[q.change] ?? 0) : c.rows.reduce((s, x) => s + Number(x.n), 0);
      }
      const summary = countsOf(counts);
      const list = r.rows.map(({ counts: _c, total: _t, ...row }) => row);
      return { a: runA, b: runB, summary, list, total };
    },
  });
}
