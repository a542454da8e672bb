/**
 * Cross-language expansion from the bilingual dictionary (issue 21): the question's words that
 * no lexicon group covers (lexicon.ts: "Tibet", "VAT", 苹果) are looked up in CC-CEDICT
 * (dictionary.ts), and their translations that the shop's knowledge holds are searched with them
 * — at DICTIONARY_SHARE of a lexicon word's weight, counting once with the question's word in a
 * chunk — and count as that concept in a passage (the decision, decide.ts).
 *
 *   - An English word: the Chinese words whose sense is that word alone (颜色 for colour, by its
 *     American spelling when the British one is not in the dictionary); when the knowledge holds
 *     none of them, the words of a short sense that has it (西藏 for Tibet, "Tibet Autonomous
 *     Region"). Senses that are verbs are not used ("to store": 存放): a verb mostly frames a
 *     question (do you accept / sell X), and its senses are many.
 *   - A Chinese word: the first sense of each of its entries, of up to three English words
 *     (苹果 → apple; 数字 → numeral, not "number"; 直播 → "broadcast live" as a phrase).
 *   - A Chinese word that, translated, makes one of a group's English phrases with the group's
 *     word beside it in the question is part of that group (苹果 + 支付 → "apple pay", a payment
 *     method): not a concept of its own.
 *
 * Only translations that occur in the chunks the search may return are used (`known`, asked of
 * the index): a translation no knowledge holds would add nothing but noise to hit testing.
 */
import { americanSpelling, dictionary } from './dictionary.js';
import { expandQuery, lexiconTokens, zhWordsByLength, type Expansion } from './lexicon.js';
import { tokenize } from './segment.js';
import { correct } from './spelling.js';
import { correctChinese } from './zh-spelling.js';

/** A dictionary word weighs this much of one the lexicon adds (search.ts applies EXPANSION_WEIGHT on top). */
export const DICTIONARY_SHARE = 0.5;
/** at most this many translations of one word are used */
const PER_WORD = 8;

/** Which of `terms` the knowledge in scope holds. */
export type KnownTerms = (terms: string[]) => Promise<Set<string>>;

const isHan = (w: string) => /\p{Script=Han}/u.test(w);

interface Lookup {
  /** index of the concept in the expansion */
  index: number;
  own: string;
  /** candidate translations, best first: whole-sense ones, then (used when none is known) words of short senses */
  first: string[][];
  fallback: string[][];
}

/** The question's English words as written, by their token ("colour" for colour). */
function rawWords(query: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of query.normalize('NFKC').matchAll(/[A-Za-z][A-Za-z'’]*/g)) {
    const t = tokenize(m[0]);
    if (t.length === 1 && !out.has(t[0])) out.set(t[0], m[0].toLowerCase());
  }
  return out;
}

/**
 * Takes a Chinese concept into a group when its translation and the group's word beside it make
 * one of the group's English phrases (苹果支付 → "apple pay"). Returns whether it did.
 */
function joinsGroup(e: Expansion, lower: string, word: string, single: Set<string>): boolean {
  for (let g = 0; g < e.grouped; g++) {
    const marks = e.concepts[g];
    const zh = marks.filter(isHan);
    for (const p of marks) {
      if (!p.includes(' ')) continue;
      const parts = p.split(' ');
      if (single.has(parts[0]) && zh.some((z) => lower.includes(word + z))) return true;
      if (single.has(parts[parts.length - 1]) && zh.some((z) => lower.includes(z + word))) return true;
    }
  }
  return false;
}

/** The words of the knowledge in scope (stemmed, Latin letters) and how many chunks hold each. */
export type ScopeWords = () => Promise<ReadonlyMap<string, number>>;

export interface ExpandOptions {
  /** translate by the bilingual dictionary (default true) */
  dictionary?: boolean;
  /** correct misspelt English words (default true; spelling.ts) */
  spelling?: boolean;
  /** the scope's vocabulary, asked only when a question has a word nothing knows */
  vocabulary?: ScopeWords;
}

/**
 * The question's misspelt English words and their corrections (spelling.ts): a word is a typo
 * when neither the lexicon, nor the dictionary's English, nor the knowledge in scope has it.
 */
export async function spellingFixes(query: string, known: KnownTerms, vocabulary?: ScopeWords): Promise<Map<string, string | null>> {
  const fix = new Map<string, string | null>();
  const d = dictionary();
  const unknown = [...rawWords(query)].filter(([t, raw]) => /^[a-z]{3,}$/.test(raw) && !lexiconTokens().has(t) && !d.knows(raw) && !d.knows(t));
  if (!unknown.length) return fix;
  const held = await known(unknown.map(([t]) => t));
  const typos = unknown.filter(([t]) => !held.has(t));
  if (!typos.length) return fix;
  const words = (await vocabulary?.()) ?? new Map<string, number>();
  for (const [t, raw] of typos) {
    const c = correct(raw, t, lexiconTokens(), words);
    if (c) fix.set(t, c.to);
  }
  return fix;
}

/** The lexicon's expansion of `query` (its misspelt words corrected), with the dictionary's translations of the words it left. */
export async function expandWithDictionary(typed: string, known: KnownTerms, opts: ExpandOptions = {}): Promise<Expansion> {
  // Chinese typos (同音字 / 形近字) read as the lexicon's words first (zh-spelling.ts)
  const zh = opts.spelling === false ? { text: typed, fixes: [] } : correctChinese(typed, zhWordsByLength());
  const query = zh.text;
  const fix = opts.spelling === false ? undefined : await spellingFixes(query, known, opts.vocabulary);
  const e = expandQuery(query, fix);
  if (zh.fixes.length) e.corrected = [...(e.corrected ?? []), ...zh.fixes];
  if (opts.dictionary === false || e.concepts.length === e.grouped) return e;
  const d = dictionary();
  const lower = query.normalize('NFKC').toLowerCase();
  const raw = rawWords(query);
  const lookups: Lookup[] = [];
  const drop = new Set<number>();
  for (let i = e.grouped; i < e.concepts.length; i++) {
    const own = e.concepts[i][0];
    if (isHan(own)) {
      const senses = d.en(own);
      if (joinsGroup(e, lower, own, new Set(senses.filter((s) => s.length === 1).map((s) => s[0])))) drop.add(i);
      else if (senses.length) lookups.push({ index: i, own, first: senses.map((s) => [...s]), fallback: [] });
      continue;
    }
    let t = own;
    let z = d.zh(t);
    const us = !z.full.length && !z.part.length && raw.get(own) ? americanSpelling(raw.get(own)!) : null;
    if (us) {
      const ut = tokenize(us)[0];
      if (ut && ut !== own) {
        t = ut;
        z = d.zh(t);
        // the American spelling is the same word: searched and counted as the question's
        e.concepts[i] = [...e.concepts[i], ut];
        if (!e.terms.includes(ut)) {
          e.added = [...e.added, [ut, 1]];
          e.group.set(ut, e.group.get(own) ?? own);
        }
      }
    }
    if (z.full.length || z.part.length) lookups.push({ index: i, own, first: z.full.map((w) => [w]), fallback: z.part.map((w) => [w]) });
  }
  if (lookups.length) {
    const asked = [...new Set(lookups.flatMap((l) => [...l.first, ...l.fallback].flat()))].slice(0, 400);
    const have = await known(asked);
    const held = (s: string[]) => s.every((t) => have.has(t));
    const added = new Map(e.added);
    for (const l of lookups) {
      let use = l.first.filter(held);
      if (!use.length) use = l.fallback.filter(held);
      use = use.slice(0, PER_WORD);
      if (!use.length) continue;
      e.concepts[l.index] = [...e.concepts[l.index], ...use.map((s) => s.join(' '))];
      const key = e.terms.includes(l.own) ? (e.group.get(l.own) ?? l.own) : `d${l.index}`;
      for (const s of use) {
        const w = DICTIONARY_SHARE * (s.length > 1 ? 0.5 : 1);
        for (const t of s) {
          if (e.terms.includes(t) || (added.get(t) ?? 0) >= w) continue;
          added.set(t, w);
          if (!e.group.has(t)) e.group.set(t, key);
        }
      }
    }
    e.added = [...added];
  }
  if (drop.size) {
    e.concepts = e.concepts.filter((_, i) => !drop.has(i));
    e.weights = e.weights.filter((_, i) => !drop.has(i));
  }
  return e;
}
