/** A trace as `GET ai-trace/detail` returns it (server/routes/ai-traces.ts). */
export interface TraceHit {
  rank: number;
  source_type: string;
  source_id: number;
  title: string;
  chunk_index: number;
  score: number;
  bm25: number | null;
  similarity: number | null;
  relevance?: number;
  relevant: boolean;
  text: string;
}

export interface TraceAttempt {
  serverId: number;
  serverName: string;
  model: string;
  outcome: string;
  error: string;
  latencyMs: number;
  cost?: number;
}

export interface TraceScoreEntry {
  scorer: string;
  score: number | null;
  passed: boolean | null;
  reason: string;
  tokens?: number;
  cost?: number;
}

export interface Trace {
  id: number;
  kind: 'playground' | 'run' | 'chat';
  ref_type: string;
  ref_id: number | null;
  shop_id: number | null;
  shop_name: string | null;
  channel: string | null;
  assistant_id: number | null;
  assistant_name: string | null;
  question: string;
  responder: string;
  outcome: 'ok' | 'error' | 'fallback' | 'builtin';
  error: string;
  server_name: string;
  model: string;
  strategy_id: number | null;
  strategy_name: string | null;
  divert_id: number | null;
  sampling: { temperature?: number | null; top_p?: number | null; max_tokens?: number };
  retrieval: {
    terms?: string[];
    expanded?: string[];
    ranking?: string;
    ranking_note?: string;
    took_ms?: number;
    decision?: { threshold: number; top_k: number; source: string; answered: boolean };
    hits?: TraceHit[];
  };
  prompt: Array<{ role: string; content: unknown }>;
  completion: string;
  attempts: TraceAttempt[];
  score: { outcome: string; score: number | null; decision: string; scores: TraceScoreEntry[] } | null;
  tokens_prompt: number;
  tokens_completion: number;
  retrieval_ms: number;
  latency_ms: number;
  cost: number;
  created_at: string;
  retention_days: number;
}

/** A cost in the servers' price unit, with enough digits for a single call. */
export const money = (x: number | null | undefined): string => (x ? (x < 0.01 ? x.toFixed(6) : x.toFixed(4)) : '0');
