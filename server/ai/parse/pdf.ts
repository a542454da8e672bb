/**
 * PDF text through unpdf (PDF.js built for servers; the CMaps and standard fonts of pdfjs-dist,
 * so Chinese text in CID fonts decodes). Pages are separated by a blank line. A PDF whose pages
 * have no text layer (a scan) is `no_text`; a password is `encrypted`.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { parseError } from './errors.js';
import type { ParsedDoc } from './types.js';

/**
 * pdf.js reads its CMaps and standard fonts with fs.readFile in Node, which wants a path (unpdf
 * passes file:// URLs, which fail): give it the directories of pdfjs-dist as paths.
 */
const pdfjsDir = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const DATA = { cMapUrl: join(pdfjsDir, 'cmaps') + '/', cMapPacked: true, standardFontDataUrl: join(pdfjsDir, 'standard_fonts') + '/' };

export async function parsePdf(bytes: Uint8Array): Promise<ParsedDoc> {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) throw parseError('corrupt', 'not a PDF file (no %PDF- header)');
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    doc = await getDocumentProxy(new Uint8Array(bytes), { ...DATA, isEvalSupported: false, useSystemFonts: false, verbosity: 0, stopAtErrors: false });
  } catch (err) {
    const e = err as Error;
    if (e.name === 'PasswordException') throw parseError('encrypted', 'the PDF asks for a password', 'PDF 需要密码');
    throw parseError('corrupt', `PDF: ${e.message}`);
  }
  try {
    const { totalPages, text } = await extractText(doc, { mergePages: false }).catch((err: Error) => {
      throw parseError('corrupt', `PDF: ${err.message}`);
    });
    const pages = text.map((t) => t.trim());
    if (!pages.some(Boolean)) throw parseError('no_text', `${totalPages} page(s) without a text layer: a scanned PDF needs OCR first`, '扫描版 PDF 需先做文字识别');
    const warnings: string[] = [];
    const empty = pages.filter((p) => !p).length;
    if (empty) warnings.push(`${empty} of ${totalPages} pages have no text (scanned?) / ${totalPages} 页中有 ${empty} 页没有文字（可能是扫描页）`);
    const meta = await getMeta(doc).catch(() => null);
    const rawTitle = (meta?.info as { Title?: unknown } | undefined)?.Title;
    const title = typeof rawTitle === 'string' && rawTitle.trim() ? rawTitle.trim() : undefined;
    return { text: pages.filter(Boolean).join('\n\n'), pages: totalPages, title, warnings };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
