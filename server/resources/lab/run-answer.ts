/**
 * One question of a scored run (docs/modules/lab.md "Runs"): answered by `answerQuestion()` (the
 * task's shop, assistant — its model server, or its shop and channel's model strategy —, prompt
 * and model server), traced (server/ai/trace.ts), then scored by the cascade. Its outcome is one
 * of three:
 *   - `pass` / `fail`: the answer was scored (the deciding scorer and its reason in `decision`);
 *   - `error`: there was no answer to score — the model failed or timed out and a fallback reply
 *     or the built-in responder stood in (the stand-in text stays in `output`), or answering
 *     threw twice. An error is never scored (score null) and counted apart from the fails.
 */
import type { Queryable } from '../../db/db.js';
import { BUILTIN_LABEL, answerQuestion, type AnswerResult } from '../../ai/answer.js';
import { exitCodeOf, scoreAnswer, type ExitCodeInfo, type JudgeSetup } from '../../ai/scoring/index.js';
import { judgeSetup } from '../../ai/scoring/judge-setup.js';
import { writeTrace } from '../../ai/trace.js';
import { versionText } from '../config/prompt-versions.js';
import { decisionOf, type RunOutcome } from './run-decision.js';
import { conversationOf, inputText, type Sample, type SampleTurn } from './samples.js';

/** tries of one question's answer before its error is recorded as the result */
const ANSWER_TRIES = 2;

interface Answered {
  answer: AnswerResult | null;
  output: string;
  responder: string;
  model: string;
  citations: unknown[];
  latencyMs: number;
  tokens: { prompt: number; completion: number } | null;
  error: string;
  /** the model was asked for and failed: the output is a stand-in (fallback reply, built-in answer), never scored */
  modelFailed: boolean;
}

/** What answers and how it is scored: the task's settings, read once per run. */
export interface RunSetup {
  shopId: number | null;
  assistantId: number | null;
  prompt: string | null;
  modelServerId: number | null;
  threshold: number;
  codes: ExitCodeInfo[];
  judge: JudgeSetup;
}

/** The result's reason when the model failed and a stand-in answered in its place. */
export const modelFailure = (why: string, fallbackReply: boolean): string =>
  fallbackReply
    ? `the model call failed (${why}); the fallback reply was not scored / 模型调用失败（${why}），兜底回复不计分`
    : `the model call failed (${why}); the built-in answer was not scored / 模型调用失败（${why}），内置应答不计分`;

/** One question answered (a failing answer is tried twice, then its error is the result). */
async function answerOnce(db: Queryable, setup: RunSetup, question: string, history: SampleTurn[], signal?: AbortSignal): Promise<Answered> {
  let lastError = '';
  for (let attempt = 1; attempt <= ANSWER_TRIES; attempt++) {
    const started = Date.now();
    try {
      const a = await answerQuestion(db, {
        question,
        history,
        shopId: setup.shopId,
        assistantId: setup.assistantId,
        prompt: setup.prompt,
        modelServerId: setup.modelServerId,
        channel: 'chat',
        signal,
      });
      // `modelFailed`: the model failed and a stand-in answered (the fallback reply, the built-in
      // responder) — an error with the model's reason; `note` otherwise says why the built-in responder answered
      const base = { answer: a, output: a.text, responder: a.responder, model: a.model, citations: a.citations, latencyMs: a.latencyMs, tokens: a.tokens };
      if (a.modelFailed) return { ...base, error: modelFailure(a.modelFailed, a.model === 'fallback reply'), modelFailed: true };
      return { ...base, error: a.note ?? '', modelFailed: false };
    } catch (err) {
      if (signal?.aborted) throw err;
      lastError = String((err as Error)?.message ?? err).slice(0, 1000);
      if (attempt < ANSWER_TRIES) await new Promise((r) => setTimeout(r, 1000));
      else return { answer: null, output: '', responder: '', model: '', citations: [], latencyMs: Date.now() - started, tokens: null, error: lastError, modelFailed: false };
    }
  }
  throw new Error('unreachable');
}

/** The answer without the built-in responder's label line (kept in the stored answer, not scored). */
const LABEL_LINE = `— ${BUILTIN_LABEL}`;
export const unlabelled = (text: string): string => {
  const t = text.trimEnd();
  return t.endsWith(LABEL_LINE) ? t.slice(0, -LABEL_LINE.length).trimEnd() : text;
};

/** The values of one result row: the answer (exit-code marker taken out), its scores and what it cost. */
export type ResultValues = unknown[];
export const RESULT_COLUMNS =
  'input, expected, output, exit_code, score, passed, latency_ms, scores, responder, model, citations, tokens_prompt, tokens_completion, judge_tokens, error, outcome, server_name, cost, decision, trace_id';

/** Where the trace of a run's answer points (the task) and whether to write one. */
export interface TraceRef {
  refType: string;
  refId: number;
}

/** Answers one sample and scores it: the values of its result row (RESULT_COLUMNS). */
export async function evaluateSample(db: Queryable, setup: RunSetup, s: Sample, signal?: AbortSignal, ref?: TraceRef): Promise<ResultValues> {
  // a multi-turn sample: its last turn is the question, the earlier ones go to the model before it
  const { question, history } = conversationOf(s.input);
  const input = inputText(s.input);
  const a = await answerOnce(db, setup, question, history, signal);
  // no answer at all, or a stand-in for a model that failed: an error with its reason, never scored
  const failed = (a.error !== '' && a.responder === '') || a.modelFailed;
  const { exitCode, text } = failed ? { exitCode: null, text: a.output } : exitCodeOf({ text: a.output, responder: a.responder, citations: a.citations }, setup.codes);
  const scored = failed
    ? { score: null, passed: false, scores: [], judgeTokens: 0 }
    : await scoreAnswer({ question: input, expected: s.expected, answer: unlabelled(text), exitCode, threshold: setup.threshold, judge: setup.judge, signal });
  const outcome: RunOutcome = failed ? 'error' : scored.passed ? 'pass' : 'fail';
  const decision = decisionOf({ outcome, expected: s.expected, scores: scored.scores, error: a.error, exitCode: exitCode?.code ?? null });
  const judgeCost = scored.scores.reduce((x, e) => x + (e.cost ?? 0), 0);
  const cost = Math.round(((a.answer?.trace.cost ?? 0) + judgeCost) * 1e6) / 1e6;
  // the server that answered: none for the built-in responder and for a stand-in
  const server = a.answer && a.responder === 'model' && !a.modelFailed ? (a.answer.trace.server?.name ?? '') : '';
  const traceScore = { outcome, score: scored.score, decision, scores: scored.scores };
  const traceId = a.answer
    ? await writeTrace(db, { kind: 'run', question, shopId: setup.shopId, channel: 'chat', assistantId: setup.assistantId, answer: a.answer, refType: ref?.refType, refId: ref?.refId, score: traceScore })
    : null;
  return [
    input, s.expected, text, exitCode?.code ?? null, scored.score, scored.passed, Math.round(a.latencyMs),
    JSON.stringify(scored.scores), a.responder, a.model.slice(0, 100), JSON.stringify(a.citations),
    a.tokens?.prompt ?? null, a.tokens?.completion ?? null, scored.judgeTokens, a.error,
    outcome, server.slice(0, 100), cost, decision, traceId,
  ];
}

/** A task's run settings: its shop (else its assistant's), model, judge (and its prompt), pass mark and the exit codes. */
export async function setupOf(
  db: Queryable,
  task: {
    shop_id: number | null;
    assistant_id: number | null;
    prompt: string;
    prompt_version_id?: number | null;
    model_server_id: number | null;
    judge_model_server_id: number | null;
    /** the judge's instruction (null: the default of server/ai/scoring/judge.ts) */
    judge_prompt?: string | null;
    pass_threshold: string | number;
  },
): Promise<RunSetup> {
  let shopId = task.shop_id;
  if (shopId === null && task.assistant_id !== null) {
    shopId = (await db.query<{ shop_id: number | null }>('SELECT shop_id FROM chat_assistant WHERE id = $1', [task.assistant_id])).rows[0]?.shop_id ?? null;
  }
  // a pinned prompt version answers with its own text, whatever the prompt says now
  const pinned = task.prompt_version_id ? await versionText(db, task.prompt_version_id) : null;
  return {
    shopId,
    assistantId: task.assistant_id,
    prompt: pinned?.content || task.prompt || null,
    modelServerId: task.model_server_id,
    threshold: Number(task.pass_threshold),
    codes: (await db.query<ExitCodeInfo>('SELECT code, need_semantics_score FROM text_exit_code ORDER BY id')).rows,
    judge: await judgeSetup(db, task.judge_model_server_id, task.judge_prompt),
  };
}
