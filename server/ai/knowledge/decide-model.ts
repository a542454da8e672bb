/**
 * The decision's model (issue 21): instead of one relevance held against the threshold, a few
 * **signals** of a hit and of the retrieved set are combined by a small logistic model into a
 * **confidence** in [0, 1] that the hit answers the question; decide.ts holds that against the
 * score threshold. The signals are shares of the question's weighted concepts (lexicon.ts
 * `expandQuery`, coverage.ts), so they read the same in both languages:
 *
 *   - `held`: what the hit itself holds — of the lexicon's groups (`held_groups`: the topic:
 *     return, warranty…) and of the words in no group (`held_words`: Bitcoin, 新疆, evening);
 *   - `elsewhere`: what the hit lacks and another hit within the top-k holds (the rest of the
 *     question said elsewhere in the shop's knowledge), groups and words apart;
 *   - `unsaid_words`: the words in no group that no hit within the top-k holds (a named thing the
 *     shop never speaks of: what an unanswerable question mostly has). The groups no hit holds
 *     are the rest of the shares (they sum to 1), the model's baseline.
 *
 * The weights are fitted on the labelled development questions only
 * (tests/api/ai/knowledge-questions.ts; the test refits them and checks these), by L2-regularised
 * logistic regression (`fitModel`, Newton's method, deterministic); never on the bench's questions.
 */
import { conceptsIn } from './coverage.js';
import type { Expansion } from './lexicon.js';

/** A question's concepts and their weights; `grouped`: how many of them (the first) are lexicon groups. */
export type Concepts = Pick<Expansion, 'concepts' | 'weights'> & { grouped?: number };

/** A retrieved hit as the decision reads it. */
export interface Judgeable {
  title: string;
  text: string;
  score: number;
  similarity?: number | null;
}

export const SIGNALS = ['held_groups', 'held_words', 'elsewhere_groups', 'elsewhere_words', 'unsaid_words'] as const;
export type SignalName = (typeof SIGNALS)[number];
export type Signals = Record<SignalName, number>;

export interface DecisionModel {
  bias: number;
  weights: Record<SignalName, number>;
}

/** Fitted on the development set (`fitModel`; tests/api/ai/demo-knowledge.test.ts checks it is what the fit gives). */
export const DECISION_MODEL: DecisionModel = {
  bias: -0.57,
  weights: { held_groups: 3.14, held_words: 0.32, elsewhere_groups: 0.34, elsewhere_words: 0.22, unsaid_words: -2.12 },
};

/** The L2 penalty of the fit (on the weights, not the bias): with about a hundred questions, five signals stay modest. */
export const L2 = 1;

const ZERO: Signals = { held_groups: 0, held_words: 0, elsewhere_groups: 0, elsewhere_words: 0, unsaid_words: 0 };

/** Each hit's signals; hits beyond `topK` get theirs too (from the top-k's), for display. */
export function signalsOf(hits: Judgeable[], e: Concepts, topK: number): Signals[] {
  const n = e.concepts.length;
  if (!n) return hits.map(() => ({ ...ZERO }));
  const w = (c: number) => e.weights[c] ?? 1;
  let all = 0;
  for (let c = 0; c < n; c++) all += w(c);
  if (all <= 0) return hits.map(() => ({ ...ZERO }));
  const grouped = e.grouped ?? 0;
  const masks = hits.map((h) => (h.score > 0 ? conceptsIn(e.concepts, `${h.title}\n${h.text}`) : e.concepts.map(() => false)));
  const top = masks.slice(0, Math.min(topK, hits.length));
  let unsaid = 0;
  for (let c = grouped; c < n; c++) if (!top.some((m) => m[c])) unsaid += w(c);
  return masks.map((m, i) => {
    const s: Signals = { ...ZERO, unsaid_words: unsaid / all };
    for (let c = 0; c < n; c++) {
      const g = c < grouped;
      if (m[c]) s[g ? 'held_groups' : 'held_words'] += w(c) / all;
      else if (top.some((o, j) => j !== i && o[c])) s[g ? 'elsewhere_groups' : 'elsewhere_words'] += w(c) / all;
    }
    return s;
  });
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The model's confidence that a hit answers the question; a hit holding nothing of it: 0. */
export function confidence(s: Signals, model: DecisionModel = DECISION_MODEL): number {
  if (s.held_groups + s.held_words <= 0) return 0;
  let z = model.bias;
  for (const k of SIGNALS) z += model.weights[k] * s[k];
  return sigmoid(z);
}

/** The signals of the hit a question's decision rests on: the one holding the most (the first in rank among equals), within the top-k. */
export function bestSignals(all: Signals[], topK: number): Signals {
  let best: Signals | null = null;
  for (const s of all.slice(0, topK)) if (!best || s.held_groups + s.held_words > best.held_groups + best.held_words + 1e-9) best = s;
  return best ?? { ...ZERO };
}

/** Solves A x = b (Gaussian elimination with partial pivoting; A is small and positive definite here). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    for (let r = c + 1; r < n; r++) {
      const f = m[r][c] / m[c][c];
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let v = m[r][n];
    for (let k = r + 1; k < n; k++) v -= m[r][k] * x[k];
    x[r] = v / m[r][r];
  }
  return x;
}

/**
 * L2-regularised logistic regression by Newton's method (deterministic: starts at zero, 50 steps
 * or until the step is below 1e-10): `xs` rows of features, `ys` 1 / 0; returns [bias, ...weights]
 * (the bias is not penalised).
 */
export function fitLogistic(xs: number[][], ys: number[], l2 = L2): number[] {
  const d = (xs[0]?.length ?? 0) + 1;
  const rows = xs.map((x) => [1, ...x]);
  let beta = new Array<number>(d).fill(0);
  for (let it = 0; it < 50; it++) {
    const g = new Array<number>(d).fill(0);
    const h = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    rows.forEach((x, i) => {
      const p = sigmoid(x.reduce((a, v, k) => a + v * beta[k], 0));
      const r = ys[i] - p;
      const wgt = p * (1 - p);
      for (let a = 0; a < d; a++) {
        g[a] += r * x[a];
        for (let b = 0; b < d; b++) h[a][b] += wgt * x[a] * x[b];
      }
    });
    for (let a = 1; a < d; a++) {
      g[a] -= l2 * beta[a];
      h[a][a] += l2;
    }
    h[0][0] += 1e-9;
    const step = solve(h, g);
    beta = beta.map((v, k) => v + step[k]);
    if (Math.max(...step.map(Math.abs)) < 1e-10) break;
  }
  return beta;
}

/**
 * The model fitted on one labelled example per question: the signals of its best hit, and
 * whether something in the shop answers it. Rounded to two decimals (what DECISION_MODEL holds).
 */
export function fitModel(examples: Array<{ signals: Signals; answerable: boolean }>, l2 = L2): DecisionModel {
  const beta = fitLogistic(examples.map((e) => SIGNALS.map((k) => e.signals[k])), examples.map((e) => (e.answerable ? 1 : 0)), l2);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return { bias: r2(beta[0]), weights: Object.fromEntries(SIGNALS.map((k, i) => [k, r2(beta[i + 1])])) as Record<SignalName, number> };
}
