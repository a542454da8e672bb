/**
 * What a trace keeps of one answer (server/ai/answer.ts → server/ai/trace.ts): the retrieval with
 * its decision and hits, the messages sent, the gateway's attempts, the sampling and the cost.
 */
import { decidedBy, type DecidedBy, type judge, type RetrievalSettings } from './knowledge/decide.js';
import type { Attempt, ChatMessage, Sampling } from './gateway/types.js';
import type { Hit, SearchResult } from './retrieval/search.js';

/** One retrieved chunk as a trace shows it. */
export interface TracedHit {
  rank: number;
  source_type: string;
  source_id: number;
  title: string;
  chunk_index: number;
  score: number;
  bm25: number | null;
  similarity: number | null;
  /** the weighted share of the question's concepts it holds (server/ai/knowledge/decide.ts) */
  relevance: number;
  /** it is used: within the top-k and at or above the threshold (the built-in responder and the prompt use it) */
  relevant: boolean;
  text: string;
}

/** Every step of one answer, for its trace (server/ai/trace.ts). */
export interface AnswerTrace {
  retrieval: {
    terms: string[];
    expanded: string[];
    ranking: string;
    ranking_note: string;
    took_ms: number;
    /**
     * the decision's threshold and top-k, where they came from, whether the knowledge answers, and
     * what decided it: the deciding hit's rank, its confidence (compared with the threshold) and
     * the five signals the model weighed (decide.ts `decidedBy`; what hit testing reports)
     */
    decision: { threshold: number; top_k: number; source: RetrievalSettings['source']; answered: boolean } & DecidedBy;
    /** what was searched: the question, or with the previous question when the question alone was declined */
    query?: string;
    hits: TracedHit[];
  } | null;
  /** the messages sent to the model ([] for the built-in responder) */
  prompt: ChatMessage[];
  attempts: Attempt[];
  server: { id: number; name: string; model: string } | null;
  strategyId: number | null;
  divertId: number | null;
  sampling: Sampling | null;
  /** the gateway's outcome; 'builtin' when no model was asked */
  outcome: 'ok' | 'error' | 'fallback' | 'builtin';
  cost: number;
}

export interface Decision {
  settings: RetrievalSettings;
  /** what was searched: the question, or a follow-up with the previous question (follow-up.ts) */
  query: string;
  judged: ReturnType<typeof judge<Hit>>['judged'];
  answered: boolean;
  /** the index of the hit the decision rests on (-1: none) */
  decider: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The retrieval step as a trace keeps it (chunk texts cut to 1,500 characters). */
export function tracedRetrieval(res: SearchResult, d: Decision): NonNullable<AnswerTrace['retrieval']> {
  const verdict = new Map(d.judged.map((j) => [j.hit, j]));
  return {
    terms: res.terms,
    expanded: res.expansion.added.map(([t]) => t).slice(0, 40),
    ranking: res.ranking,
    ranking_note: res.rankingNote,
    took_ms: Math.round(res.tookMs),
    decision: { threshold: d.settings.threshold, top_k: d.settings.topK, source: d.settings.source, answered: d.answered, ...decidedBy(d) },
    query: d.query,
    hits: res.hits.map((h, i) => ({
      rank: i + 1,
      source_type: h.source_type,
      source_id: h.source_id,
      title: h.title,
      chunk_index: h.chunk_index,
      score: round(h.score),
      bm25: h.bm25 === null ? null : round(h.bm25),
      similarity: h.similarity === null ? null : round(h.similarity),
      relevance: round(verdict.get(h)?.relevance ?? 0),
      relevant: verdict.get(h)?.verdict === 'used',
      text: h.text.slice(0, 1500),
    })),
  };
}

