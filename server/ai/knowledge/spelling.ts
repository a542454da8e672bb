/**
 * Spelling correction of a question's English words (issue 21: "refnd", "cancle", "guarentee"
 * are concepts no passage has, so the decision declined them). A word is a **typo** when it is
 * none of: a word the knowledge in scope holds, a lexicon word (lexicon.ts), a word of the
 * bilingual dictionary's English (CC-CEDICT's glosses, dictionary.ts `knows`) — so a real word
 * the shop does not talk about ("cryptocurrency", "vegan") is never "corrected" into one it does.
 *
 * A typo is corrected to the nearest word, by optimal string alignment distance (Levenshtein with
 * adjacent transpositions: retrun → return is one edit), of at most 1 edit (2 for words of eight
 * letters or more), compared as the index has it (stemmed) and as typed:
 *
 *   1. a lexicon word (the domain's words: refund, cancel, size) that the knowledge in scope holds;
 *   2. a function word (there, which, will — one edit, from three letters): the typo is dropped,
 *      it asked nothing;
 *   3. another lexicon word (its group's other words may be in scope: a Chinese shop's 退款);
 *   4. a word of the knowledge in scope (the shop's own vocabulary: its products, carriers).
 *
 * Ties within a tier go to the word more chunks hold, then the alphabet. No candidate: the word
 * stays as typed (a concept no passage has).
 */
import { stemmer } from 'stemmer';
import { eng } from 'stopword';

/** Optimal string alignment distance of `a` and `b`, or `max + 1` as soon as it is over `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  let prev2: number[] = [];
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let low = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur.push(d);
      if (d < low) low = d;
    }
    if (low > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[n];
}

/** The most edits a typed word of this many letters may be away from its correction. */
export const maxEdits = (letters: number): number => (letters >= 8 ? 2 : letters >= 4 ? 1 : 0);

/** What a typo becomes: a word of the index (its stemmed token), or nothing (a misspelt function word). */
export interface Correction {
  from: string;
  to: string | null;
  tier: 'lexicon' | 'function word' | 'knowledge';
}

const FUNCTION_WORDS = [...new Set(eng.map((w) => w.toLowerCase()).filter((w) => /^[a-z]+$/.test(w) && w.length >= 3))];

/**
 * The correction of one typed word (`raw` as typed, lower case; `token` as the index would have
 * it), or null. `lexicon`: the lexicon's words (stemmed tokens); `knowledge`: the words of the
 * chunks in scope (stemmed) with how many chunks hold each.
 */
export function correct(raw: string, token: string, lexicon: ReadonlySet<string>, knowledge: ReadonlyMap<string, number>): Correction | null {
  const max = maxEdits(raw.length);
  const df = (w: string) => knowledge.get(w) ?? 0;
  // the stems of every word one edit from the typed one (dayz → days → dai, as the index stems it)
  const near = max ? new Set([...edits1(raw)].map(stemOf)) : new Set<string>();
  const best = (words: Iterable<string>): string | null => {
    let out: string | null = null;
    let bestD = max + 1;
    for (const w of words) {
      if (w.length < 3 || Math.abs(w.length - token.length) > max + 2) continue;
      const d = near.has(w) ? 1 : Math.min(editDistance(token, w, max), editDistance(raw, w, max));
      if (d < bestD || (d === bestD && out !== null && (df(w) > df(out) || (df(w) === df(out) && w < out)))) {
        out = w;
        bestD = d;
      }
    }
    return bestD <= max ? out : null;
  };
  const inScope = max ? best([...lexicon].filter((w) => knowledge.has(w))) : null;
  if (inScope) return { from: token, to: inScope, tier: 'lexicon' };
  // a function word with a letter dropped or changed (ther, wich, wil): it asked nothing
  if (raw.length >= 3 && FUNCTION_WORDS.some((w) => editDistance(raw, w, 1) <= 1)) return { from: token, to: null, tier: 'function word' };
  if (!max) return null;
  const lex = best(lexicon);
  if (lex) return { from: token, to: lex, tier: 'lexicon' };
  const own = best(knowledge.keys());
  return own ? { from: token, to: own, tier: 'knowledge' } : null;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every string one deletion, transposition, replacement or insertion of a letter away from `w`. */
export function edits1(w: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i <= w.length; i++) {
    const a = w.slice(0, i);
    const b = w.slice(i);
    if (b) out.add(a + b.slice(1));
    if (b.length > 1) out.add(a + b[1] + b[0] + b.slice(2));
    for (const c of LETTERS) {
      if (b) out.add(a + c + b.slice(1));
      out.add(a + c + b);
    }
  }
  out.delete(w);
  return out;
}

/** The stemmed token of a typed word, as segment.ts indexes it. */
export const stemOf = (raw: string): string => (raw.length > 3 ? stemmer(raw) : raw);
