/**
 * What decided a run's question, as one line people read (both languages, "english / 中文", which
 * the result page shows in the console's language): the deciding scorer, its score and its reason;
 * or why the question is an error and was not scored.
 */
import type { ScoreEntry } from '../../ai/scoring/scorers.js';

export const RUN_OUTCOMES = ['pass', 'fail', 'error'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

const SCORER_NAMES: Record<string, [string, string]> = {
  exact: ['Exact match', '完全一致'],
  contains: ['Contains', '包含'],
  regex: ['Pattern', '正则'],
  similarity: ['Similarity', '相似度'],
  judge: ['LLM judge', '模型评判'],
};

/** "english / 中文" → [english, 中文]; a text without a Chinese half is both. */
function halves(text: string): [string, string] {
  const at = text.lastIndexOf(' / ');
  if (at < 0 || !/\p{Script=Han}/u.test(text.slice(at + 3))) return [text, text];
  return [text.slice(0, at), text.slice(at + 3)];
}

/** The entry that decided: the last one that scored (passed true or false), else the last one. */
export function decidingScore(scores: ScoreEntry[]): ScoreEntry | null {
  for (let i = scores.length - 1; i >= 0; i--) if (scores[i].passed !== null) return scores[i];
  return scores.at(-1) ?? null;
}

const fmt = (x: number | null) => (x === null ? '–' : String(Math.round(x * 100) / 100));

export function decisionOf(o: { outcome: RunOutcome; expected: string; scores: ScoreEntry[]; error: string; exitCode: string | null }): string {
  if (o.outcome === 'error') {
    const [en, zh] = halves(o.error || 'no answer / 无回答');
    return `Not scored: ${en} / 未评分：${zh}`;
  }
  if (!o.expected.trim()) {
    return o.outcome === 'pass'
      ? 'No expected answer: the answer has text, so it passes / 无期望答案：有回答即通过'
      : 'No expected answer: the answer is empty / 无期望答案：回答为空';
  }
  const d = decidingScore(o.scores);
  if (!d) return '';
  const [nameEn, nameZh] = SCORER_NAMES[d.scorer] ?? [d.scorer, d.scorer];
  const [en, zh] = halves(d.reason);
  const score = d.score === null ? '' : ` ${fmt(d.score)}`;
  return `${nameEn}${score}: ${en} / ${nameZh}${score}：${zh}`;
}
