/**
 * "No two page or form schemas 90 % alike" (scripts/lib/similarity.ts) as a check over the
 * files as written, for `schemas:check` and the dev watch alike. The watch asks again on every
 * save, so the leaf lines of each file are kept until its text changes.
 */
import type { SchemaProblem } from '../../server/schemas/problems.js';
import { leafLines, similarityProblems, type Pair, type SchemaText } from './similarity.js';

/** a file's leaf lines as a multiset */
interface Lines {
  size: number;
  counts: Map<string, number>;
}

/** similarity.ts `similarity` over multisets counted once */
function dice(a: Lines, b: Lines): number {
  if (!a.size && !b.size) return 1;
  const [small, large] = a.counts.size <= b.counts.size ? [a, b] : [b, a];
  let common = 0;
  for (const [l, n] of small.counts) common += Math.min(n, large.counts.get(l) ?? 0);
  return (2 * common) / (a.size + b.size);
}

export type SimilarityCheck = (written: readonly SchemaText[]) => SchemaProblem[];

export function similarityCheck(): SimilarityCheck {
  const cache = new Map<string, { text: string; lines: Lines | null }>();
  const linesOf = (f: SchemaText): Lines | null => {
    const hit = cache.get(f.file);
    if (hit?.text === f.text) return hit.lines;
    let lines: Lines | null = null;
    try {
      const all = leafLines(JSON.parse(f.text));
      const counts = new Map<string, number>();
      for (const l of all) counts.set(l, (counts.get(l) ?? 0) + 1);
      lines = { size: all.length, counts };
    } catch {
      // invalid JSON: reported by the meta-schema check
    }
    cache.set(f.file, { text: f.text, lines });
    return lines;
  };
  return (written) => {
    const docs = [...written]
      .sort((a, b) => a.file.localeCompare(b.file))
      .map((f) => ({ file: f.file, lines: linesOf(f) }))
      .filter((d): d is { file: string; lines: Lines } => d.lines !== null);
    const all: Pair[] = [];
    for (let i = 0; i < docs.length; i++) {
      for (let j = i + 1; j < docs.length; j++) all.push({ a: docs[i].file, b: docs[j].file, similarity: dice(docs[i].lines, docs[j].lines) });
    }
    return similarityProblems(all);
  };
}
