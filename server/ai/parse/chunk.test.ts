import { describe, expect, it } from 'vitest';
import { chunkText, estimateTokens, type Chunk } from './chunk.js';

const EN_SENTENCES = [
  'Returns are accepted within 30 days of delivery.',
  'Items must be unused and in their original packaging.',
  'Refunds go back to the original payment method within five working days.',
  'Express shipping costs 12 dollars and arrives in one to two days.',
  'Standard shipping is free for orders over 50 dollars.',
  'Warranty claims need the order number and a photo of the fault.',
];
const ZH_SENTENCES = ['收到商品后七天内可以无理由退货。', '商品须保持完好，包装齐全！', '退款将在五个工作日内原路退回。', '偏远地区运费另计，请联系客服确认？', '保修期为一年，需提供订单号和故障照片。'];

const english = (n: number) => Array.from({ length: n }, (_, i) => EN_SENTENCES[i % EN_SENTENCES.length]).join(' ');
const chinese = (n: number) => Array.from({ length: n }, (_, i) => ZH_SENTENCES[i % ZH_SENTENCES.length]).join('');

/** What must hold for any text: exact slices, within size, in order, every word in some chunk, bounded overlap. */
function expectWellFormed(text: string, chunks: Chunk[], size: number, overlap: number) {
  chunks.forEach((c, i) => {
    expect(c.index).toBe(i);
    expect(c.text).toBe(text.slice(c.start, c.end));
    expect(c.text).toBe(c.text.trim());
    expect(c.tokens).toBe(estimateTokens(c.text));
    expect(c.tokens).toBeLessThanOrEqual(size);
    if (i > 0) {
      const prev = chunks[i - 1];
      expect(c.start).toBeGreaterThan(prev.start);
      expect(c.end).toBeGreaterThan(prev.end);
      if (c.start < prev.end) expect(estimateTokens(text.slice(c.start, prev.end))).toBeLessThanOrEqual(Math.floor(overlap * size));
    }
  });
  const covered = new Uint8Array(text.length);
  for (const c of chunks) covered.fill(1, c.start, c.end);
  const missed = [...text].findIndex((ch, i) => !/\s/.test(ch) && !covered[i]);
  expect(missed).toBe(-1);
}

describe('estimateTokens', () => {
  it('counts CJK characters one each, words by length, punctuation one each', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('Hello world')).toBe(2);
    expect(estimateTokens('internationalization')).toBe(4);
    expect(estimateTokens('退货政策')).toBe(4);
    expect(estimateTokens('你好，世界。')).toBe(6);
    expect(estimateTokens('7天内 return')).toBe(5); // 7, 天, 内, return (2)
  });
});

describe('chunkText', () => {
  it('returns nothing for blank text and one trimmed chunk for short text', () => {
    expect(chunkText('')).toEqual([]);
    expect(chunkText(' \n\n \t')).toEqual([]);
    const text = '\n  Returns within 30 days.  \n';
    expect(chunkText(text)).toEqual([{ index: 0, text: 'Returns within 30 days.', start: 3, end: 26, tokens: 7 }]);
  });

  it('splits English on sentence ends, each chunk within size, with an overlap of whole sentences', () => {
    const text = english(120);
    const chunks = chunkText(text, { size: 100, overlap: 0.2 });
    expect(chunks.length).toBeGreaterThan(5);
    expectWellFormed(text, chunks, 100, 0.2);
    for (const c of chunks) {
      expect(c.text).toMatch(/\.$/);
      expect(EN_SENTENCES.some((s) => c.text.startsWith(s))).toBe(true);
    }
    expect(chunks.slice(1).every((c, i) => c.start < chunks[i].end)).toBe(true);
  });

  it('splits unspaced Chinese on 。！？ and counts every character', () => {
    const text = chinese(200);
    const chunks = chunkText(text, { size: 120, overlap: 0.25 }); // 30 tokens: room for any one sentence
    expectWellFormed(text, chunks, 120, 0.25);
    for (const c of chunks) expect(c.text).toMatch(/[。！？]$/);
    expect(chunks[0].tokens).toBeGreaterThan(90); // filled close to the size, not cut at the first sentence
    expect(chunks.slice(1).every((c, i) => c.start < chunks[i].end)).toBe(true);
  });

  it('prefers paragraph ends when a paragraph end falls in the second half of a chunk', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `${i}. ${english(8)}`);
    const text = paragraphs.join('\n\n');
    const size = 300;
    const chunks = chunkText(text, { size, overlap: 0 });
    expectWellFormed(text, chunks, size, 0);
    for (const c of chunks.slice(0, -1)) expect(text.slice(c.end, c.end + 2)).toBe('\n\n');
    expect(chunks.slice(1).every((c, i) => c.start >= chunks[i].end)).toBe(true); // overlap 0: none shared
  });

  it('cuts a sentence longer than a chunk into words, and a word longer than a chunk into characters', () => {
    const longZh = '本店所有商品均支持七天无理由退货但定制商品和已经拆封的食品除外'.repeat(40); // no punctuation at all
    const zhChunks = chunkText(longZh, { size: 100, overlap: 0.1 });
    expectWellFormed(longZh, zhChunks, 100, 0.1);
    expect(zhChunks.length).toBeGreaterThanOrEqual(Math.ceil(longZh.length / 100));

    const blob = `See ${'QUJDREVGR0g'.repeat(1000)} for details.`;
    const blobChunks = chunkText(blob, { size: 50 });
    expectWellFormed(blob, blobChunks, 50, 0.15);
    expect(blobChunks.length).toBeGreaterThan(10);
  });

  it('handles mixed Chinese and English text with lines', () => {
    const text = Array.from({ length: 60 }, (_, i) => `${i % 2 ? ZH_SENTENCES[i % 5] : EN_SENTENCES[i % 6]}`).join('\n');
    const chunks = chunkText(text, { size: 80, overlap: 0.25 });
    expectWellFormed(text, chunks, 80, 0.25);
    for (const c of chunks) expect(c.text).toMatch(/[.。！？]$/);
  });

  it('stays linear on long text without paragraphs (Intl.Segmenter is only given short windows)', () => {
    const text = `${english(3000)}\n${chinese(6000)}`.replace(/\. /g, (m, i: number) => (i % 7 ? m : '.\n')); // ~300k characters
    const t0 = performance.now();
    const chunks = chunkText(text);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(chunks.length).toBeGreaterThan(100);
    expect(chunks.at(-1)!.end).toBe(text.length);
  });

  it('uses 500 tokens and 15 % overlap by default, and refuses bad options', () => {
    const text = english(400);
    const chunks = chunkText(text);
    expectWellFormed(text, chunks, 500, 0.15);
    expect(Math.max(...chunks.map((c) => c.tokens))).toBeGreaterThan(400);
    expect(() => chunkText('x', { size: 0 })).toThrow(RangeError);
    expect(() => chunkText('x', { size: 10.5 })).toThrow(RangeError);
    expect(() => chunkText('x', { overlap: 1 })).toThrow(RangeError);
    expect(() => chunkText('x', { overlap: -0.1 })).toThrow(RangeError);
  });
});
