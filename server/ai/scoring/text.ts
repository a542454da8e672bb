/**
 * Text normalisation and word tokens for the scorers. Words come from `Intl.Segmenter('zh',
 * { granularity: 'word' })`: ICU's dictionary splits unspaced Chinese into words and the Unicode
 * rules split English (and other spaced scripts) on spaces and punctuation. Text is NFKC-folded
 * (full-width letters, digits and punctuation become ASCII) and lower-cased first.
 */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** English articles dropped from the tokens (as SQuAD's F1 does); nothing else is dropped. */
const ARTICLES = new Set(['a', 'an', 'the']);

/** NFKC, lower case, every run of white space one space, trimmed. */
export function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** `normalize`, then punctuation and symbols removed (for exact and contains checks). */
export function bare(text: string): string {
  return normalize(text)
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** The word tokens of `text`, in order (Chinese words and English words alike). */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(normalize(text))) {
    if (!s.isWordLike) continue;
    if (ARTICLES.has(s.segment)) continue;
    out.push(s.segment);
  }
  return out;
}
