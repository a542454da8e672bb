/**
 * Whether the retrieved knowledge answers a question: the decision the built-in responder and
 * the model's prompt both follow, and that hit testing shows (issue 21).
 *
 * Every hit gets a **relevance** in [0, 1]: the decision model's confidence that it answers the
 * question (decide-model.ts), from what it holds of the question's weighted concepts (lexicon.ts
 * `expandQuery` / coverage.ts: a lexicon group the question touches in either language, or a
 * content word in no group, a common Chinese word weighing less), what other hits within the
 * top-k hold, and the words none of them holds. The first `topK` hits are looked at; a hit is
 * **used** when its relevance reaches the `threshold`, or (hybrid ranking) its vector is at least
 * VECTOR_RELEVANT close to the question's. No hit used: the question is **declined** — the
 * knowledge does not answer it.
 *
 * The rank alone decides nothing: the best passage of a shop is still the best when nothing
 * answers ("a pick-up store" finds the product care guide).
 *
 * Threshold and top-k come from the knowledge base (a shop's knowledge: `knowledge_setting`,
 * migration 0033), overridden by the assistant (`chat_assistant.score_threshold` / `top_k`),
 * else DEFAULT_RETRIEVAL, which was chosen on the labelled development questions of
 * tests/api/ai/knowledge-questions.ts (`calibrate` below; the test checks the defaults are still
 * what it picks).
 */
import { confidence, signalsOf, SIGNALS, type Concepts, type Judgeable, type Signals } from './decide-model.js';

export type { Concepts, Judgeable } from './decide-model.js';

export interface RetrievalSettings {
  /** the least relevance a hit must have to be used (0–1) */
  threshold: number;
  /** how many of the ranked hits are looked at (and given to a model) */
  topK: number;
  /** where the values come from */
  source: 'default' | 'shop' | 'assistant' | 'request';
}

/** Chosen on the development set (see `calibrate`, docs/ai.md "Deciding not to answer"). */
export const DEFAULT_RETRIEVAL: RetrievalSettings = { threshold: 0.55, topK: 5, source: 'default' };
export const TOP_K_MAX = 20;

/**
 * With hybrid ranking, a hit whose vector is at least this close to the question's (cosine) is
 * used even when it shares none of the question's words ("send my purchase back" finds the
 * return policy). Embedding models put paraphrases well above 0.6 and unrelated passages of one
 * shop below it.
 */
export const VECTOR_RELEVANT = 0.6;

export type Verdict = 'used' | 'below_threshold' | 'beyond_top_k';

export interface Judged<H extends Judgeable> {
  hit: H;
  /** the model's confidence (decide-model.ts) */
  relevance: number;
  /** what the model weighed (shares of the question's weighted concepts) */
  signals: Signals;
  verdict: Verdict;
}

/**
 * Each hit's relevance — the decision model's confidence that it answers the question
 * (decide-model.ts: the signals of the hit and of the top-k, weighed as fitted on the development
 * set) — and verdict, in rank order; `answered` false = declined.
 */
export function judge<H extends Judgeable>(
  hits: H[],
  expansion: Concepts,
  s: Pick<RetrievalSettings, 'threshold' | 'topK'>,
): { judged: Judged<H>[]; answered: boolean; decider: number } {
  const sig = signalsOf(hits, expansion, s.topK);
  const judged = hits.map((hit, i): Judged<H> => {
    const relevance = confidence(sig[i]);
    const close = hit.similarity != null && hit.similarity >= VECTOR_RELEVANT;
    const verdict: Verdict = i >= s.topK ? 'beyond_top_k' : relevance >= s.threshold || close ? 'used' : 'below_threshold';
    return { hit, relevance, signals: sig[i], verdict };
  });
  const answered = judged.some((j) => j.verdict === 'used');
  return { judged, answered, decider: deciderOf(judged, answered) };
}

/**
 * The index of the hit the decision rests on: answered, the used hit of the highest relevance;
 * declined, the hit of the highest relevance within the top-k (the nearest to being used). The
 * first in rank among equals; -1 when nothing was retrieved. Its signals and confidence are what
 * a trace and hit testing report as the decision's.
 */
function deciderOf(judged: Array<Judged<Judgeable>>, answered: boolean): number {
  let best = -1;
  judged.forEach((j, i) => {
    const eligible = answered ? j.verdict === 'used' : j.verdict !== 'beyond_top_k';
    if (eligible && (best < 0 || j.relevance > judged[best].relevance)) best = i;
  });
  return best;
}

/** The decision as a trace and hit testing report it: the deciding hit's rank (1-based; null: none), its confidence and its five signals. */
export interface DecidedBy {
  rank: number | null;
  confidence: number;
  signals: Signals;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const NO_SIGNALS = Object.fromEntries(SIGNALS.map((k) => [k, 0])) as Signals;

/** The deciding hit of a judged retrieval (`judge`), rounded to three decimals as hit testing shows its rows. */
export function decidedBy(d: { judged: Array<Judged<Judgeable>>; decider: number }): DecidedBy {
  const j = d.judged[d.decider];
  if (!j) return { rank: null, confidence: 0, signals: { ...NO_SIGNALS } };
  return { rank: d.decider + 1, confidence: r3(j.relevance), signals: Object.fromEntries(SIGNALS.map((k) => [k, r3(j.signals[k])])) as Signals };
}

/** The hits a decision uses. */
export const usedHits = <H extends Judgeable>(d: { judged: Judged<H>[] }): H[] => d.judged.filter((j) => j.verdict === 'used').map((j) => j.hit);

/** One labelled question for calibration: the relevance of its ranked hits, and whether something answers it. */
export interface Sample {
  relevances: number[];
  answerable: boolean;
}

export interface Operating {
  threshold: number;
  topK: number;
  /** answerable questions declined / answerable questions */
  falseDeclines: number;
  /** unanswerable questions answered / unanswerable questions */
  answeredUnanswerable: number;
}

/** The two error rates of one threshold and top-k over labelled samples. */
export function operating(samples: Sample[], threshold: number, topK: number): Operating {
  const ans = samples.filter((x) => x.answerable);
  const un = samples.filter((x) => !x.answerable);
  const answers = (x: Sample) => x.relevances.slice(0, topK).some((r) => r >= threshold);
  return {
    threshold,
    topK,
    falseDeclines: ans.filter((x) => !answers(x)).length / Math.max(ans.length, 1),
    answeredUnanswerable: un.filter(answers).length / Math.max(un.length, 1),
  };
}

/**
 * The threshold and top-k chosen on labelled samples, by the goal of issue 21 (unanswerable
 * declined ≥ 0.9, false declines as few as possible): among thresholds 0.05–0.95 (steps of 0.05)
 * and top-k 1–10 whose share of unanswerable questions answered is at most `maxAnswered`, the one
 * with the fewest false declines; ties go to the higher threshold (the safer against guessing),
 * then to the top-k nearest 5 (what the model's prompt had before: a smaller one gives a model
 * less to go on, a larger one more noise; the labels say nothing between them). None meets the
 * bound: the one that answers the fewest unanswerable questions.
 */
export function calibrate(samples: Sample[], maxAnswered = 0.1): Operating {
  const ts = Array.from({ length: 19 }, (_, i) => Math.round((i + 1) * 5) / 100);
  const all: Operating[] = [];
  for (let k = 1; k <= 10; k++) for (const t of ts) all.push(operating(samples, t, k));
  const ok = all.filter((o) => o.answeredUnanswerable <= maxAnswered + 1e-9);
  const pool = ok.length ? ok : all;
  const key = (o: Operating) => (ok.length ? o.falseDeclines : o.answeredUnanswerable);
  return pool.reduce((best, o) => {
    const d = key(o) - key(best);
    if (d < -1e-9) return o;
    if (d > 1e-9) return best;
    if (o.threshold !== best.threshold) return o.threshold > best.threshold ? o : best;
    return Math.abs(o.topK - 5) < Math.abs(best.topK - 5) ? o : best;
  });
}
