/**
 * How much of a question a passage holds (issue 21): the share of the question's concepts
 * (lexicon.ts `expandQuery`, dictionary.ts) found in its title and text — what the retrieval
 * decision (decide.ts) holds against the score threshold.
 */
import { tokenize } from './segment.js';

/** `hay` holds `needle`'s tokens in a row (a question holds a lexicon phrase). */
export const hasSeq = (hay: string[], needle: string[]): boolean => {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
};

/** A passage's tokens hold a phrase's words in order, each within PHRASE_GAP tokens of the one before ("shipping is free … below that it costs"). */
const PHRASE_GAP = 5;
function hasNear(hay: string[], needle: string[]): boolean {
  outer: for (let i = 0; i < hay.length; i++) {
    if (hay[i] !== needle[0]) continue;
    let at = i;
    for (const w of needle.slice(1)) {
      const next = hay.slice(at + 1, at + 1 + PHRASE_GAP).indexOf(w);
      if (next < 0) continue outer;
      at += next + 1;
    }
    return true;
  }
  return false;
}

/**
 * Which of the question's concepts a passage has (title and text): one of its tokens (a Chinese
 * word as a substring, since segmentation varies; an English phrase by its words close together).
 */
export function conceptsIn(concepts: string[][], passage: string): boolean[] {
  const lower = passage.normalize('NFKC').toLowerCase();
  const seq = tokenize(lower, { chars: false });
  const toks = new Set(seq);
  const has = (t: string) => (/\p{Script=Han}/u.test(t) ? lower.includes(t) : t.includes(' ') ? hasNear(seq, t.split(' ')) : toks.has(t));
  return concepts.map((c) => c.some(has));
}

/**
 * The share of the question's concepts a passage has, each weighing its `weights` entry (all 1
 * when none are given).
 */
export function coverage(concepts: string[][], passage: string, weights?: readonly number[]): number {
  if (!concepts.length) return 0;
  const has = conceptsIn(concepts, passage);
  let got = 0;
  let all = 0;
  has.forEach((h, i) => {
    const w = weights?.[i] ?? 1;
    all += w;
    if (h) got += w;
  });
  return all > 0 ? got / all : 0;
}
