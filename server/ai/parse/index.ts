/**
 * Document parsing for the knowledge base and the imports. Every parser runs in a worker thread
 * (run.ts) with memory and time caps; zip-based files (docx, xlsx) pass the zip guard first.
 *
 *   parseDocument(type, bytes)   → { text, pages?, title?, warnings? } or a ParseError with a reason
 *   precheckUpload(type, bytes)  → at upload: refuses a bomb / broken archive as 40001 on `file`
 *   readSheetRows(bytes, max)    → the rows of an XLSX import, reading stops past `max`
 *   chunkText(text, opts)        → chunks on paragraph / sentence boundaries (chunk.ts)
 */
import { invalid } from '../../http/errors.js';
import { parseError, ParseError } from './errors.js';
import { runJob } from './run.js';
import { isDocFileType, ZIP_TYPES, type Cells, type ParsedDoc, type ParseOptions } from './types.js';
import { inspectZip, ZIP_LIMITS, type ZipLimits } from './zip-guard.js';

export { chunkText, estimateTokens, type Chunk, type ChunkOptions } from './chunk.js';
export { isParseError, PARSE_REASONS, ParseError, type ParseReason } from './errors.js';
export { DOC_FILE_TYPES, type Cells, type DocFileType, type ParsedDoc, type ParseOptions } from './types.js';
export { ZIP_LIMITS, type ZipLimits } from './zip-guard.js';

export const PARSE_DEFAULTS = { timeoutMs: 30_000, maxMemoryMb: 256, maxChars: 5_000_000 };

const ALIASES: Record<string, string> = { markdown: 'md', htm: 'html', text: 'txt' };
const normType = (t: string) => {
  const x = t.trim().toLowerCase().replace(/^\./, '');
  return ALIASES[x] ?? x;
};
const zipLimits = (z?: Partial<ZipLimits>): ZipLimits => ({ ...ZIP_LIMITS, ...z });
const toBuffer = (b: Uint8Array) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/** The text of a document; never blocks the event loop for longer than a message copy. */
export async function parseDocument(fileType: string, bytes: Uint8Array, opts: ParseOptions = {}): Promise<ParsedDoc> {
  const type = normType(fileType);
  if (!isDocFileType(type)) throw parseError('unsupported', `".${type}" files; use txt, md, html, pdf, docx, xlsx or csv`);
  if (!bytes.length) throw parseError('no_text', 'the file is empty');
  const maxChars = opts.maxChars ?? PARSE_DEFAULTS.maxChars;
  const result = await runJob(
    { kind: 'doc', fileType: type, bytes, maxChars, zip: zipLimits(opts.zip) },
    { timeoutMs: opts.timeoutMs ?? PARSE_DEFAULTS.timeoutMs, maxMemoryMb: opts.maxMemoryMb ?? PARSE_DEFAULTS.maxMemoryMb },
  );
  return result as ParsedDoc;
}

/**
 * The cheap checks, on the calling thread: a zip-based file's central directory (no inflation)
 * and a PDF's header. Throws a ParseError; `precheckUpload` is the same as a 40001 on `file`.
 */
export async function checkDocument(fileType: string, bytes: Uint8Array, zip?: Partial<ZipLimits>): Promise<void> {
  const type = normType(fileType);
  if (!isDocFileType(type)) throw parseError('unsupported', `".${type}" files; use txt, md, html, pdf, docx, xlsx or csv`);
  if (ZIP_TYPES.includes(type)) await inspectZip(toBuffer(bytes), type, zipLimits(zip));
  else if (type === 'pdf' && !Buffer.from(bytes.subarray(0, 1024)).toString('latin1').includes('%PDF-')) {
    throw parseError('corrupt', 'not a PDF file (no %PDF- header)');
  }
}

/**
 * For an upload route, before anything is stored: a refused file is 40001 naming `file`. Beyond
 * `checkDocument`, a zip-based file is inflated once in the parse worker (heap and time caps,
 * off the server thread), so a directory that lies about its sizes or an XML part with a DTD
 * (an entity bomb) is refused here too instead of being stored and failing later.
 */
export async function precheckUpload(fileType: string, bytes: Uint8Array, zip?: Partial<ZipLimits>): Promise<void> {
  try {
    await checkDocument(fileType, bytes, zip);
    const type = normType(fileType);
    if (ZIP_TYPES.includes(type)) {
      await runJob({ kind: 'inflate', label: type, bytes, zip: zipLimits(zip) }, { timeoutMs: PARSE_DEFAULTS.timeoutMs, maxMemoryMb: PARSE_DEFAULTS.maxMemoryMb });
    }
  } catch (err) {
    if (err instanceof ParseError) throw invalid([{ field: 'file', message: err.message }]);
    throw err;
  }
}

/**
 * The rows of an XLSX import (see office.ts readXlsxRows): the zip guard here, the reading in a
 * worker, at most `maxRows + 1` rows back. A file that cannot be read is 40001 on `file`.
 */
export async function readSheetRows(bytes: Uint8Array, maxRows: number, opts: ParseOptions = {}): Promise<Cells[]> {
  try {
    const zip = zipLimits(opts.zip);
    await inspectZip(toBuffer(bytes), 'xlsx', zip);
    const rows = await runJob(
      { kind: 'sheet', bytes, maxRows, zip },
      { timeoutMs: opts.timeoutMs ?? PARSE_DEFAULTS.timeoutMs, maxMemoryMb: opts.maxMemoryMb ?? PARSE_DEFAULTS.maxMemoryMb },
    );
    return rows as Cells[];
  } catch (err) {
    if (err instanceof ParseError) throw invalid([{ field: 'file', message: err.message }]);
    throw err;
  }
}
