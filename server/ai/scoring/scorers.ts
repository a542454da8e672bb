/**
 * The cheap scorers (no model): exact, contains, regex and similarity (token-level F1). Each
 * returns a score 0…1, pass or fail and a reason ("english / 中文") that the result page shows.
 */
import { RE2JS } from 're2js';
import { bare, words } from './text.js';

export const SCORERS = ['exact', 'contains', 'regex', 'similarity', 'judge'] as const;
export type ScorerName = (typeof SCORERS)[number];

export interface ScoreEntry {
  scorer: ScorerName;
  /** 0…1; null when the scorer could not score (e.g. no judge model) */
  score: number | null;
  passed: boolean | null;
  reason: string;
  /** tokens the scorer spent (the judge only) */
  tokens?: number;
  /** what those tokens cost at the judge server's prices (the judge only) */
  cost?: number;
}

const round = (x: number) => Math.round(x * 10000) / 10000;

/** Same text after normalisation (case, width, white space and punctuation do not count). */
export function exact(answer: string, expected: string): ScoreEntry {
  const ok = bare(answer) === bare(expected) && bare(expected) !== '';
  return {
    scorer: 'exact',
    score: ok ? 1 : 0,
    passed: ok,
    reason: ok ? 'the answer equals the expected answer / 与期望答案一致' : 'the answer differs from the expected answer / 与期望答案不一致',
  };
}

/** The answer contains the whole expected answer (after normalisation). */
export function contains(answer: string, expected: string): ScoreEntry {
  const e = bare(expected);
  const ok = e !== '' && bare(answer).includes(e);
  return {
    scorer: 'contains',
    score: ok ? 1 : 0,
    passed: ok,
    reason: ok ? 'the answer contains the expected answer / 回答包含期望答案' : 'the expected answer is not in the answer / 回答不包含期望答案',
  };
}

/** An expected answer written as `/pattern/flags` is a regular expression (flags: i, s, m). */
export function asPattern(expected: string): { source: string; flags: string } | null {
  const m = /^\/(.+)\/([ism]*)$/su.exec(expected.trim());
  return m ? { source: m[1], flags: m[2] } : null;
}

/**
 * The answer matches the pattern somewhere. RE2 semantics (re2js): linear time whatever the
 * pattern, so a dataset cannot stall a run; look-arounds and back-references are refused.
 */
export function regex(answer: string, pattern: { source: string; flags: string }): ScoreEntry {
  let flags = 0;
  if (pattern.flags.includes('i')) flags |= RE2JS.CASE_INSENSITIVE;
  if (pattern.flags.includes('s')) flags |= RE2JS.DOTALL;
  if (pattern.flags.includes('m')) flags |= RE2JS.MULTILINE;
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern.source, flags);
  } catch (err) {
    return {
      scorer: 'regex',
      score: 0,
      passed: false,
      reason: `the expected pattern is not a valid RE2 expression (${(err as Error).message}) / 期望答案的正则表达式无效`,
    };
  }
  const ok = re.matcher(answer).find();
  return {
    scorer: 'regex',
    score: ok ? 1 : 0,
    passed: ok,
    reason: ok ? `the answer matches /${pattern.source}/ / 回答匹配正则` : `the answer does not match /${pattern.source}/ / 回答不匹配正则`,
  };
}

/** Token-level F1 of two texts (multisets of words), with its precision and recall. */
export function f1(answer: string, expected: string): { f1: number; precision: number; recall: number } {
  const a = words(answer);
  const e = words(expected);
  if (!a.length || !e.length) return { f1: a.length === e.length ? 1 : 0, precision: 0, recall: 0 };
  const counts = new Map<string, number>();
  for (const w of e) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of a) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      common++;
      counts.set(w, n - 1);
    }
  }
  if (!common) return { f1: 0, precision: 0, recall: 0 };
  const precision = common / a.length;
  const recall = common / e.length;
  return { f1: (2 * precision * recall) / (precision + recall), precision, recall };
}

/** Similarity to the expected answer: token F1, passing at `threshold` (0…1). */
export function similarity(answer: string, expected: string, threshold: number): ScoreEntry {
  const r = f1(answer, expected);
  const ok = r.f1 >= threshold;
  const figures = `F1 ${r.f1.toFixed(2)}, precision ${r.precision.toFixed(2)}, recall ${r.recall.toFixed(2)}, threshold ${threshold}`;
  return {
    scorer: 'similarity',
    score: round(r.f1),
    passed: ok,
    reason: ok ? `${figures} / 词级相似度达到阈值` : `${figures} / 词级相似度低于阈值`,
  };
}
