/**
 * Word segmentation for retrieval, the same on both sides (what is indexed and what is asked):
 * jieba (`@node-rs/jieba`, its dictionary and HMM for unknown words) for runs of Chinese
 * characters, Unicode letter classes for spaced scripts, NFKC-folded (full-width letters and digits become ASCII), lower-cased,
 * English words stemmed (Porter, `stemmer`), and a short list of function words dropped
 * (English from `stopword`; a hand-picked Chinese list, see ZH_STOP).
 *
 * The tokens are stored space-separated (`knowledge_chunk.segmented`), so PostgreSQL's 'simple'
 * text-search configuration only has to split on spaces: the same on PGlite and PostgreSQL.
 */
import type { Jieba } from '@node-rs/jieba';
import { createRequire } from 'node:module';
import { stemmer } from 'stemmer';
import { eng } from 'stopword';

// jieba's dictionary takes about 0.5 s and 60 MB to load: only in a process that segments. Its
// package (a native addon) and its dict.js (which reads 11 MB of dictionaries when imported) are
// required on first use too, not with every server start (docs/performance.md, "Start-up").
const require = createRequire(import.meta.url);
let jieba: Jieba | null = null;
const jb = (): Jieba =>
  (jieba ??= (require('@node-rs/jieba') as typeof import('@node-rs/jieba')).Jieba.withDict((require('@node-rs/jieba/dict.js') as typeof import('@node-rs/jieba/dict.js')).dict));

/** The words of a run of Chinese characters (jieba's accurate mode, HMM for words it lacks). */
export const hanWords = (run: string): string[] => (run ? jb().cut(run, true) : []);
/** The same by jieba's dictionary alone (no HMM guesses: 快地 stays 快 / 地): what the Chinese spelling correction reads as real words. */
export const hanDictWords = (run: string): string[] => (run ? jb().cut(run, false) : []);

// `stopword`'s English list, and the words of asking it lacks
const EN_STOP = new Set([...eng.map((w) => w.toLowerCase()), ...'when why does did please hi hello thanks thank us will would could can tell know want need use uses used using'.split(' ')]);
// Particles and pronouns only: `stopword`'s Chinese list also drops 多 几 时 日 月 不 小 分,
// which carry meaning in questions about delivery times and sizes.
const ZH_STOP = new Set(
  '的 了 吗 呢 吧 啊 呀 嘛 哦 么 是 我 你 您 他 她 它 我们 你们 请 请问 一下 这个 那个 这 那 和 与 及 或 也 就 都 在 有 还 要 想 我想 能 可以 会 什么 怎么 怎样 如何 哪 哪里 哪个 哪些 为什么 吗 呢 么'.split(' '),
);
const LATIN = /^[a-z]+$/;

// Runs of Han characters go to jieba; other words are matched here.
const NOT_HAN = '(?:(?!\\p{Script=Han})[\\p{L}\\p{N}\\p{M}])';
const RUN = new RegExp(`(\\p{Script=Han}+)|${NOT_HAN}+(?:['’.]${NOT_HAN}+)*`, 'gu');

function push(out: string[], word: string): void {
  let w = word;
  if (LATIN.test(w)) {
    if (EN_STOP.has(w)) return;
    if (w.length > 3) w = stemmer(w);
  } else if (ZH_STOP.has(w)) return;
  out.push(w);
}

/**
 * Tokens of `text`, in order. A Chinese word of several characters also yields its characters
 * (after the word): the segmenter cuts 发错货 / 发错 or 2-4天 / 几天 differently depending on the
 * context, and the characters still meet; BM25 weighs the rarer whole word higher.
 * `chars: false`: the words alone (what a question asks about, server/ai/knowledge/lexicon.ts).
 */
export function tokenize(text: string, opts: { chars?: boolean } = {}): string[] {
  const chars = opts.chars ?? true;
  const out: string[] = [];
  if (!text) return out;
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(RUN)) {
    if (!m[1]) {
      push(out, m[0].replace(/['’]/g, ''));
      continue;
    }
    for (const w of hanWords(m[1])) {
      if (ZH_STOP.has(w)) continue;
      out.push(w);
      if (chars && w.length > 1) for (const ch of w) if (!ZH_STOP.has(ch)) out.push(ch);
    }
  }
  return out;
}

/** The space-separated tokens stored in `segmented` (and searched with the 'simple' config). */
export const segmentText = (text: string): string => tokenize(text).join(' ');

/** True when the text is mostly Chinese (Han characters outnumber Latin letters). */
export function isChinese(text: string): boolean {
  let han = 0;
  let latin = 0;
  for (const ch of text) {
    if (/\p{Script=Han}/u.test(ch)) han++;
    else if (/[A-Za-z]/.test(ch)) latin++;
  }
  return han > 0 && han * 2 >= latin / 3;
}
