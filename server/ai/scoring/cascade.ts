/**
 * The scoring cascade of one answer (docs/ai.md "Scoring"): cheap checks first (regex when the
 * expected answer is a `/pattern/`, else exact, then contains); when none passes, the exit code
 * decides whether a semantic score is needed (`need_semantics_score`); if so, similarity (token
 * F1) and — only then, and only when one is configured — the LLM judge. Every score is kept with
 * its scorer and reason; the final score is 0…100.
 */
import type { JudgeSetup } from './judge.js';
import { asPattern, contains, exact, regex, similarity, type ScoreEntry } from './scorers.js';

export interface ExitCodeInfo {
  code: string;
  need_semantics_score: number | boolean;
}

export interface CascadeInput {
  question: string;
  expected: string;
  answer: string;
  /** the answer's exit code; null when none could be told (then a semantic score is needed) */
  exitCode: ExitCodeInfo | null;
  /** pass mark of the semantic scores (similarity and judge), 0…1 */
  threshold: number;
  judge: JudgeSetup;
  signal?: AbortSignal;
}

export interface CascadeResult {
  /** 0…100; null when there is nothing to score against (no expected answer) */
  score: number | null;
  passed: boolean;
  scores: ScoreEntry[];
  /** tokens the judge spent on this answer */
  judgeTokens: number;
}

const pct = (x: number) => Math.round(x * 10000) / 100;

export async function scoreAnswer(input: CascadeInput): Promise<CascadeResult> {
  const { answer, expected, exitCode } = input;
  if (!expected.trim()) {
    return {
      score: null,
      passed: answer.trim() !== '',
      scores: [],
      judgeTokens: 0,
    };
  }
  const scores: ScoreEntry[] = [];
  const pattern = asPattern(expected);
  if (pattern) {
    // a pattern is the whole check: no semantic score against a regular expression
    const r = regex(answer, pattern);
    return { score: pct(r.score ?? 0), passed: r.passed === true, scores: [r], judgeTokens: 0 };
  }
  for (const check of [exact, contains]) {
    const r = check(answer, expected);
    scores.push(r);
    if (r.passed) return { score: 100, passed: true, scores, judgeTokens: 0 };
  }
  const needs = exitCode === null || Boolean(Number(exitCode.need_semantics_score));
  if (!needs) {
    scores.push({
      scorer: 'similarity',
      score: null,
      passed: null,
      reason: `not scored: exit code "${exitCode!.code}" needs no semantic score / 退出码无需语义评分`,
    });
    return { score: 0, passed: false, scores, judgeTokens: 0 };
  }
  const sim = similarity(answer, expected, input.threshold);
  scores.push(sim);
  if (!input.judge.available) {
    scores.push({ scorer: 'judge', score: null, passed: null, reason: input.judge.reason });
    return { score: pct(sim.score ?? 0), passed: sim.passed === true, scores, judgeTokens: 0 };
  }
  try {
    const v = await input.judge.judge(input.question, expected, answer, input.signal);
    const ok = v.score >= input.threshold;
    scores.push({ scorer: 'judge', score: v.score, passed: ok, reason: `${input.judge.model}: ${v.reason || (ok ? 'pass' : 'fail')}`, tokens: v.tokens, ...(v.cost ? { cost: v.cost } : {}) });
    return { score: pct(v.score), passed: ok, scores, judgeTokens: v.tokens };
  } catch (err) {
    if (input.signal?.aborted) throw err;
    scores.push({
      scorer: 'judge',
      score: null,
      passed: null,
      reason: `the judge failed, similarity decides (${(err as Error).message.slice(0, 300)}) / 评判模型调用失败，按相似度评分`,
    });
    return { score: pct(sim.score ?? 0), passed: sim.passed === true, scores, judgeTokens: 0 };
  }
}
