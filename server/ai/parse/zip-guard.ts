/**
 * The zip guard in front of every zip-based file (docx, xlsx). Two steps:
 * - `inspectZip` reads the central directory only (no inflation, milliseconds) and refuses an
 *   archive whose declared sizes, entry count or compression ratio look like a bomb;
 * - `inflateAll` then inflates every entry once through yauzl, which fails as soon as an entry
 *   yields more bytes than it declared, so a directory that lies is caught too, with at most the
 *   declared (capped) total ever produced. It runs in the parse worker, never on the server thread.
 * mammoth (jszip) and yauzl both read the central directory, so they see the same entries.
 * While inflating, an XML part holding a DTD (`<!DOCTYPE`, where entity bombs live; OOXML never
 * uses one) is refused, whatever the XML parser behind would do with it.
 */
import type { Entry, ZipFile } from 'yauzl';
import yauzl from 'yauzl';
import { mb, parseError, ParseError } from './errors.js';

export interface ZipLimits {
  /** total declared uncompressed size */
  maxTotalBytes: number;
  maxEntries: number;
  /** uncompressed : compressed, checked per entry and overall above `ratioFloorBytes` */
  maxRatio: number;
  ratioFloorBytes: number;
}

export const ZIP_LIMITS: ZipLimits = { maxTotalBytes: 50 * 1024 * 1024, maxEntries: 2000, maxRatio: 100, ratioFloorBytes: 1024 * 1024 };

export interface ZipSummary {
  entries: number;
  totalBytes: number;
  compressedBytes: number;
}

const ZIP_MAGIC = [0x50, 0x4b];
/** An OLE compound file: an encrypted OOXML document, or a legacy .doc / .xls under a new name. */
const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (b: Uint8Array, magic: number[]) => magic.every((x, i) => b[i] === x);

function notZip(bytes: Buffer, label: string): ParseError {
  if (startsWith(bytes, CFB_MAGIC)) {
    // Office writes a password-protected docx / xlsx as a compound file holding "EncryptedPackage"
    if (bytes.includes(Buffer.from('EncryptedPackage', 'utf16le'))) return parseError('encrypted', `an encrypted Office ${label}`);
    return parseError('unsupported', `an old binary Office file (.doc / .xls) named .${label}; save it as .${label} first`);
  }
  return parseError('corrupt', `not a ${label} file (no zip archive)`);
}

async function open(bytes: Buffer, label: string): Promise<ZipFile> {
  if (!startsWith(bytes, ZIP_MAGIC)) throw notZip(bytes, label);
  try {
    return await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, strictFileNames: false });
  } catch (err) {
    throw parseError('corrupt', `broken ${label} archive: ${(err as Error).message}`);
  }
}

function checkEntry(e: Entry, label: string, limits: ZipLimits): void {
  if (e.isEncrypted()) throw parseError('encrypted', `${label} entry ${e.fileName} is encrypted`);
  if (e.compressionMethod !== 0 && e.compressionMethod !== 8) throw parseError('unsupported', `zip compression method ${e.compressionMethod} in ${e.fileName}`);
  if (e.uncompressedSize > limits.maxTotalBytes) throw parseError('bomb', `${e.fileName} declares ${mb(e.uncompressedSize)}, at most ${mb(limits.maxTotalBytes)}`, `解压后 ${mb(e.uncompressedSize)}`);
  if (e.uncompressedSize > limits.ratioFloorBytes && e.uncompressedSize > limits.maxRatio * Math.max(1, e.compressedSize)) {
    const ratio = Math.round(e.uncompressedSize / Math.max(1, e.compressedSize));
    throw parseError('bomb', `${e.fileName} expands ${ratio}:1 to ${mb(e.uncompressedSize)}, at most ${limits.maxRatio}:1`, `压缩比 ${ratio}:1`);
  }
}

function checkTotals(s: ZipSummary, limits: ZipLimits): void {
  if (s.totalBytes > limits.ratioFloorBytes && s.totalBytes > limits.maxRatio * Math.max(1, s.compressedBytes)) {
    throw parseError('bomb', `${mb(s.compressedBytes)} expand to ${mb(s.totalBytes)}, more than ${limits.maxRatio}:1`, `${mb(s.compressedBytes)} 解压为 ${mb(s.totalBytes)}`);
  }
  if (s.totalBytes > limits.maxTotalBytes) {
    throw parseError('too_large', `${mb(s.totalBytes)} uncompressed, at most ${mb(limits.maxTotalBytes)}`, `解压后 ${mb(s.totalBytes)}，最多 ${mb(limits.maxTotalBytes)}`);
  }
}

/** Central directory checks only; throws a ParseError (bomb, too_large, encrypted, corrupt, unsupported). */
export async function inspectZip(bytes: Buffer, label: string, limits: ZipLimits = ZIP_LIMITS): Promise<ZipSummary> {
  const zip = await open(bytes, label);
  try {
    if (zip.entryCount > limits.maxEntries) throw parseError('bomb', `${zip.entryCount} entries, at most ${limits.maxEntries}`, `${zip.entryCount} 个条目，最多 ${limits.maxEntries} 个`);
    const s: ZipSummary = { entries: 0, totalBytes: 0, compressedBytes: 0 };
    for await (const e of zip.eachEntry()) {
      checkEntry(e, label, limits);
      s.entries++;
      s.totalBytes += e.uncompressedSize;
      s.compressedBytes += e.compressedSize;
      checkTotals(s, limits);
    }
    return s;
  } catch (err) {
    if (err instanceof ParseError) throw err;
    throw parseError('corrupt', `broken ${label} archive: ${(err as Error).message}`);
  } finally {
    zip.close();
  }
}

const DOCTYPE = Buffer.from('<!DOCTYPE');
const isXmlPart = (name: string) => /\.(xml|rels|vml)$/i.test(name);

/**
 * Inflates every entry once, counting, after `inspectZip` passed: an entry that yields more (or
 * fewer) bytes than declared is a lie → bomb (more) or corrupt (fewer); an XML part with a DTD is
 * a bomb too. Returns the bytes inflated.
 */
export async function inflateAll(bytes: Buffer, label: string, limits: ZipLimits = ZIP_LIMITS): Promise<number> {
  await inspectZip(bytes, label, limits);
  const zip = await open(bytes, label);
  let total = 0;
  try {
    for await (const e of zip.eachEntry()) {
      if (e.fileName.endsWith('/')) continue;
      const stream = await zip.openReadStreamPromise(e);
      const xml = isXmlPart(e.fileName);
      let tail = Buffer.alloc(0);
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > limits.maxTotalBytes) throw parseError('bomb', `entries inflate past ${mb(limits.maxTotalBytes)}`);
        if (xml) {
          const seen = Buffer.concat([tail, chunk]);
          if (seen.includes(DOCTYPE)) throw parseError('bomb', `${e.fileName} declares a DTD (XML entities), which Office files never have`, 'XML 实体声明');
          tail = seen.subarray(Math.max(0, seen.length - DOCTYPE.length + 1));
        }
      }
    }
    return total;
  } catch (err) {
    if (err instanceof ParseError) throw err;
    const msg = (err as Error).message;
    if (/too many bytes/.test(msg)) throw parseError('bomb', `an entry inflates past its declared size`);
    throw parseError('corrupt', `broken ${label} archive: ${msg}`);
  } finally {
    zip.close();
  }
}
