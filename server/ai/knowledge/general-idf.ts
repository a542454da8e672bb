/**
 * How telling a Chinese word is in general Chinese: jieba's IDF table (`@node-rs/jieba`'s
 * idf.txt, about 270,000 words with their inverse document frequency over a general corpus,
 * from 2.6 for 不 to 13.9 for the rarest). Used to weigh the words of a question that the lexicon
 * does not know when deciding whether a passage answers it (lexicon.ts `coverage`): a question
 * that says 如果不喜欢 is about the return, one that says 比特币 is about Bitcoin.
 *
 * Loaded on first use (about 0.2 s, 20 MB); a word the table lacks counts fully.
 */
import { createRequire } from 'node:module';

let table: Map<string, number> | null = null;

function load(): Map<string, number> {
  // required here, not imported: jieba's dict.js reads both of its dictionaries (11 MB) when loaded
  const { idf } = createRequire(import.meta.url)('@node-rs/jieba/dict.js') as typeof import('@node-rs/jieba/dict.js');
  const m = new Map<string, number>();
  const text = Buffer.from(idf).toString('utf8');
  for (const line of text.split('\n')) {
    const sp = line.indexOf(' ');
    if (sp <= 0) continue;
    const v = Number(line.slice(sp + 1));
    if (Number.isFinite(v)) m.set(line.slice(0, sp), v);
  }
  return m;
}

/** The IDF of a word in jieba's table (undefined: not in it). */
export const generalIdf = (word: string): number | undefined => (table ??= load()).get(word);

/** IDF at or below which a word weighs the least (common words: 如果 4.0, 问题 4.0, 东西 4.8) */
const COMMON = 4;
/** IDF at or above which a word weighs fully (rare, telling words: 门店 8.6, 招聘 8.2, 刻字 10.3) */
const TELLING = 8;
/** the least weight (a common word still counts a little) */
const FLOOR = 0.15;

/**
 * The weight of a Chinese word among a question's concepts: FLOOR for common words, 1 for telling
 * ones, linear between. A word the table lacks (jieba's HMM made it: 要交) weighs the mean of its
 * characters' weights; a character the table lacks weighs 1.
 */
export function generalWeight(word: string): number {
  const v = generalIdf(word);
  if (v === undefined) {
    const chars = [...word];
    return chars.length > 1 ? chars.reduce((a, c) => a + generalWeight(c), 0) / chars.length : 1;
  }
  if (v <= COMMON) return FLOOR;
  if (v >= TELLING) return 1;
  return FLOOR + ((1 - FLOOR) * (v - COMMON)) / (TELLING - COMMON);
}
