/**
 * The result rows of a scored run as the result page reads them (`GET <task>/result/list`):
 * the question, expected answer and answer, the outcome (pass, fail, error), the deciding scorer
 * and its reason as one readable line (`decision`, run-decision.ts), every score, who answered
 * (responder and server), tokens, cost, the knowledge cited (titles, as text) and the trace.
 */
import { F } from '../engine/fields.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';

export const resultDef = (a: { name: string; table: string }): ResourceDef => ({
  name: `${a.name}/result`,
  table: `${a.table}_result`,
  defaultSort: { field: 'sample_index', order: 'asc' },
  maxPageSize: 500,
  fields: {
    id: F.id(),
    task_id: { schema: ID, required: true, filter: 'eq' },
    sample_index: { schema: { type: 'integer' }, sort: true },
    input: F.text(),
    expected: F.text(),
    output: F.text(),
    exit_code: { schema: { type: 'string', maxLength: 60 }, nullable: true, filter: 'eq' },
    score: { schema: { type: 'number' }, nullable: true, select: 't.score::float8', filter: 'range', sort: true },
    passed: F.bool(),
    /** pass, fail (scored) or error (no answer to score: the model failed, timed out, a fallback reply stood in) */
    outcome: { schema: { type: 'string', enum: ['pass', 'fail', 'error'] }, filter: 'eq' },
    /** the deciding scorer, its score and reason — or why the question was not scored ("english / 中文") */
    decision: { schema: { type: 'string' } },
    /** every score of the cascade: [{ scorer, score 0…1 | null, passed, reason, tokens? }] */
    scores: { schema: { type: 'array', items: { type: 'object', additionalProperties: true } } },
    /** the scores in one line: "similarity 0.62 ✓ · judge –" */
    score_detail: {
      schema: { type: 'string' },
      virtual: true,
      select: `COALESCE((SELECT string_agg((e->>'scorer') || ' ' || COALESCE(round((e->>'score')::numeric, 2)::text, '–') ||
                 CASE WHEN e->>'passed' = 'true' THEN ' ✓' WHEN e->>'passed' = 'false' THEN ' ✗' ELSE '' END, ' · ')
                 FROM jsonb_array_elements(t.scores) e), '')`,
    },
    responder: { schema: { type: 'string' }, filter: 'eq' },
    model: { schema: { type: 'string' } },
    /** the model server that answered (a strategy's fallback server when the first failed); '' for the built-in responder and errors */
    server_name: { schema: { type: 'string' } },
    citations: { schema: { type: 'array', items: { type: 'object', additionalProperties: true } } },
    /** the titles of the knowledge cited, one line */
    cited: {
      schema: { type: 'string' },
      virtual: true,
      select: `COALESCE((SELECT string_agg(DISTINCT e->>'title', ' · ') FROM jsonb_array_elements(t.citations) e), '')`,
    },
    tokens_prompt: { schema: { type: 'integer' }, nullable: true },
    tokens_completion: { schema: { type: 'integer' }, nullable: true },
    judge_tokens: { schema: { type: 'integer' } },
    cost: { schema: { type: 'number' }, select: 't.cost::float8' },
    error: { schema: { type: 'string' } },
    latency_ms: { schema: { type: 'integer' }, sort: true },
    /** the answer's trace (null: written before traces, or swept by the retention) */
    trace_id: { schema: { type: 'integer' }, nullable: true, select: '(SELECT x.id::int FROM ai_trace x WHERE x.id = t.trace_id)' },
    created_at: F.createdAt(),
  },
  operations: {},
});
