/**
 * The text formats: txt, md, html, csv. Bytes are decoded by their BOM, as UTF-8 when valid,
 * else as GB18030 (what Chinese Windows tools write), with a warning saying so.
 */
import { convert } from 'html-to-text';
import Papa from 'papaparse';
import type { ParsedDoc } from './types.js';

export function decodeText(bytes: Uint8Array, warnings: string[]): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    warnings.push('not valid UTF-8: decoded as GB18030 / 非 UTF-8 编码，已按 GB18030 解码');
    return new TextDecoder('gb18030').decode(bytes);
  }
}

export function parseTxt(bytes: Uint8Array): ParsedDoc {
  const warnings: string[] = [];
  return { text: decodeText(bytes, warnings), warnings };
}

/** Markdown stays markdown (headings and lists help chunking and reading); the title is the first heading. */
export function parseMd(bytes: Uint8Array): ParsedDoc {
  const warnings: string[] = [];
  const text = decodeText(bytes, warnings);
  const title = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(text)?.[1];
  return { text, title, warnings };
}

export function parseHtml(bytes: Uint8Array): ParsedDoc {
  const warnings: string[] = [];
  const html = decodeText(bytes, warnings);
  const text = convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
      { selector: 'h4', options: { uppercase: false } },
      { selector: 'h5', options: { uppercase: false } },
      { selector: 'h6', options: { uppercase: false } },
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
      { selector: 'title', format: 'skip' },
    ],
  });
  const title = convert(html, { wordwrap: false, baseElements: { selectors: ['title'], returnDomByDefault: false } }).trim();
  return { text, title: title || undefined, warnings };
}

/** A CSV as text: one line per row, cells separated by tabs. */
export function parseCsv(bytes: Uint8Array): ParsedDoc {
  const warnings: string[] = [];
  const parsed = Papa.parse<string[]>(decodeText(bytes, warnings), { skipEmptyLines: 'greedy' });
  const quotes = parsed.errors.find((e) => e.type === 'Quotes');
  if (quotes) warnings.push(`CSV row ${(quotes.row ?? 0) + 1}: ${quotes.message} / CSV 引号不匹配`);
  return { text: parsed.data.map((row) => row.map((c) => String(c ?? '').trim()).join('\t')).join('\n'), warnings };
}
