/** A trace as `GET ai-trace/detail` returns it: declared once, src/contract/replies/ai.ts (the server's reply schema). */
export type { DecisionSignals, Trace, TraceAttempt, TraceHit, TraceScoreEntry } from '../../contract/replies/ai.js';

/** A cost in the servers' price unit, with enough digits for a single call. */
export const money = (x: number | null | undefined): string => (x ? (x < 0.01 ? x.toFixed(6) : x.toFixed(4)) : '0');
