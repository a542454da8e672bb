import type { Citation } from './stream.js';

export interface KnowledgeDiff {
  onlyA: Citation[];
  onlyB: Citation[];
  both: Array<{ a: Citation; b: Citation }>;
}

const keyOf = (c: Citation) => `${c.source_type}:${c.source_id}`;

/** What the two configurations retrieved differently (same source = same type and id). */
export function diffKnowledge(a: Citation[], b: Citation[]): KnowledgeDiff {
  const inB = new Map(b.map((c) => [keyOf(c), c]));
  const inA = new Set(a.map(keyOf));
  return {
    onlyA: a.filter((c) => !inB.has(keyOf(c))),
    onlyB: b.filter((c) => !inA.has(keyOf(c))),
    both: a.filter((c) => inB.has(keyOf(c))).map((c) => ({ a: c, b: inB.get(keyOf(c))! })),
  };
}
