/**
 * Splits a document's text into overlapping chunks for retrieval, on the strongest boundary that
 * fits: paragraph (blank line), then sentence or line (Intl.Segmenter, which knows 。！？ as well
 * as . ! ?), then word (ICU's dictionary segmentation, so unspaced Chinese splits into words),
 * then character. Sizes are in estimated tokens: one per CJK character or punctuation mark, one
 * per five letters of a word in other scripts (about what BPE tokenizers give).
 *
 * Every chunk is `text.slice(start, end)` exactly (offsets in UTF-16 code units), begins and ends
 * on non-space, and holds at most `size` estimated tokens. Consecutive chunks share whole
 * sentences (or words) worth at most `overlap × size` tokens.
 */
export interface ChunkOptions {
  /** estimated tokens per chunk (default 500) */
  size?: number;
  /** fraction of `size` repeated from the end of one chunk at the start of the next (default 0.15) */
  overlap?: number;
}

export interface Chunk {
  index: number;
  text: string;
  start: number;
  end: number;
  tokens: number;
}

const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff00-\\uffef';
const TOKEN_RE = new RegExp(`([${CJK_CLASS}])|((?:(?![${CJK_CLASS}])[\\p{L}\\p{N}\\p{M}])+)|(\\S)`, 'gu');
const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, 'u');

export function estimateTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(TOKEN_RE)) n += m[2] ? Math.ceil(m[2].length / 5) : 1;
  return n;
}

/** A unit of text that is never split further; `level` is the strength of the boundary before it. */
interface Piece {
  start: number;
  end: number;
  tokens: number;
  level: number;
}
const PARAGRAPH = 0;
const SENTENCE = 1;
const WORD = 2;
const CHAR = 3;

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });
const words = new Intl.Segmenter('en', { granularity: 'word' });

/** [start, end) of `text` without the spaces around it, or null when it is blank. */
function trimRange(text: string, start: number, end: number): [number, number] | null {
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return start < end ? [start, end] : null;
}

/**
 * V8's segment iterator slows down with the length of its input (quadratically: 100k characters
 * take seconds), so it only ever sees windows of at most `max` characters, cut after the last
 * newline, else after the last mark in `cuts`, else after the last space, else hard.
 */
function* windows(text: string, start: number, end: number, max: number, cuts: RegExp): Generator<[number, number]> {
  while (end - start > max) {
    const part = text.slice(start, start + max);
    let cut = part.lastIndexOf('\n') + 1;
    if (!cut) for (const m of part.matchAll(cuts)) cut = m.index! + m[0].length;
    if (!cut) cut = Math.max(part.search(/\s\S*$/) + 1, 0);
    if (!cut) cut = max;
    yield [start, start + cut];
    start += cut;
  }
  if (end > start) yield [start, end];
}
const SENTENCE_END = /[。！？!?.;；](?=\s|[^.\w]|$)/g;
const WORD_END = /[\s,，、;；:：]/g;

/** One sentence (or line), or its words when it is longer than a chunk. */
function pushSentence(out: Piece[], text: string, start: number, end: number, level: number, size: number): void {
  const r = trimRange(text, start, end);
  if (!r) return;
  const tokens = estimateTokens(text.slice(r[0], r[1]));
  if (tokens <= size) {
    out.push({ start: r[0], end: r[1], tokens, level });
    return;
  }
  const first = out.length;
  // punctuation and spaces stay with the word before them
  let from = r[0];
  for (const [a, b] of windows(text, r[0], r[1], 400, WORD_END)) {
    for (const w of words.segment(text.slice(a, b))) {
      const at = a + w.index;
      if (w.isWordLike && at > from) {
        pushWord(out, text, from, at, size);
        from = at;
      }
    }
  }
  pushWord(out, text, from, r[1], size);
  if (out.length > first) out[first].level = Math.min(out[first].level, level);
}

function pushWord(out: Piece[], text: string, start: number, end: number, size: number): void {
  const r = trimRange(text, start, end);
  if (!r) return;
  const tokens = estimateTokens(text.slice(r[0], r[1]));
  if (tokens <= size) out.push({ start: r[0], end: r[1], tokens, level: WORD });
  else hardSplit(out, text, r[0], r[1], size);
}

/** A "word" longer than a chunk (a URL, a run of base64): cut by characters. */
function hardSplit(out: Piece[], text: string, start: number, end: number, size: number): void {
  let from = start;
  let weight = 0;
  const cut = (to: number) => {
    const r = trimRange(text, from, to);
    if (r) out.push({ start: r[0], end: r[1], tokens: estimateTokens(text.slice(r[0], r[1])), level: CHAR });
  };
  for (let i = start; i < end; ) {
    const cp = text.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    const w = CJK_CHAR.test(String.fromCodePoint(cp)) ? 1 : 0.2;
    if (weight + w > size && i > from) {
      cut(i);
      from = i;
      weight = 0;
    }
    weight += w;
    i += len;
  }
  cut(end);
}

/** The pieces of a paragraph: its sentences, the first one marked as a paragraph start. */
function pushParagraph(out: Piece[], text: string, start: number, end: number, size: number): void {
  const first = out.length;
  for (const [a, b] of windows(text, start, end, 2000, SENTENCE_END)) {
    for (const s of sentences.segment(text.slice(a, b))) pushSentence(out, text, a + s.index, a + s.index + s.segment.length, SENTENCE, size);
  }
  if (out.length > first) out[first].level = PARAGRAPH;
}

function pieces(text: string, size: number): Piece[] {
  const out: Piece[] = [];
  const blank = /\n[ \t\u00a0\u3000]*\n\s*/g;
  let from = 0;
  for (const m of text.matchAll(blank)) {
    pushParagraph(out, text, from, m.index!, size);
    from = m.index! + m[0].length;
  }
  pushParagraph(out, text, from, text.length, size);
  return out;
}

/** Where the chunk from `i` ends (exclusive): as far as it fits, then back to the strongest boundary in its second half. */
function chunkEnd(ps: Piece[], i: number, size: number): number {
  let j = i;
  let tok = 0;
  while (j < ps.length && (j === i || tok + ps[j].tokens <= size)) tok += ps[j++].tokens;
  if (j >= ps.length) return j;
  let best = j;
  let acc = tok;
  for (let k = j; k > i; k--) {
    if (acc < size / 2) break;
    if (ps[k].level < ps[best].level) best = k;
    acc -= ps[k - 1].tokens;
  }
  return best;
}

export function chunkText(text: string, opts: ChunkOptions = {}): Chunk[] {
  const size = opts.size ?? 500;
  const overlap = opts.overlap ?? 0.15;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive integer, got ${size}`);
  if (!(overlap >= 0 && overlap < 1)) throw new RangeError(`chunk overlap must be in [0, 1), got ${overlap}`);
  const ps = pieces(text, size);
  const budget = Math.floor(overlap * size);
  const chunks: Chunk[] = [];
  let i = 0;
  while (i < ps.length) {
    const end = chunkEnd(ps, i, size);
    const start = ps[i].start;
    const stop = ps[end - 1].end;
    const slice = text.slice(start, stop);
    chunks.push({ index: chunks.length, text: slice, start, end: stop, tokens: estimateTokens(slice) });
    if (end >= ps.length) break;
    // the next chunk starts with as many of this one's last pieces as fit the overlap budget
    let next = end;
    let shared = 0;
    while (next - 1 > i && shared + ps[next - 1].tokens <= budget) shared += ps[--next].tokens;
    i = next;
  }
  return chunks;
}
