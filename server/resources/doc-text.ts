import { inflateRawSync, inflateSync } from 'node:zlib';

/**
 * Plain text of an uploaded document: txt / md as is, docx from word/document.xml, pdf from its text operators.
 * Superseded by server/ai/parse (parseDocument, in a worker with memory and time caps); kept until the
 * learning job switches over. Inflation is capped so a bomb that got past the upload check fails fast.
 */
export function extractText(type: string, data: Buffer): string {
  switch (type) {
    case 'txt':
    case 'md':
      return data.toString('utf8').replace(/^\uFEFF/, '');
    case 'docx':
      return docxText(data);
    case 'pdf':
      return pdfText(data);
    default:
      throw new Error(`unsupported type ${type}`);
  }
}

/** The most one zip entry or PDF stream may inflate to here (this runs on the server thread). */
export const MAX_INFLATE = 8 * 1024 * 1024;
const BOMB = `the file expands past ${MAX_INFLATE / 1024 / 1024} MB; refused as a possible zip bomb / 文件解压后过大，疑似压缩炸弹，已拒绝`;

/** One file out of a zip archive, read through the central directory. */
export function unzipEntry(zip: Buffer, name: string): Buffer | null {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error('not a zip file');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('bad zip directory');
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const entry = zip.toString('utf8', p + 46, p + 46 + nameLen);
    if (entry === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const raw = zip.subarray(start, start + size);
      if (method === 0) return Buffer.from(raw);
      try {
        if (method === 8) return inflateRawSync(raw, { maxOutputLength: MAX_INFLATE });
      } catch (err) {
        throw (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? new Error(BOMB) : err;
      }
      throw new Error(`unsupported zip method ${method}`);
    }
    p += 46 + nameLen + extraLen + commentLen;
  }
  return null;
}

const decodeXml = (s: string) =>
  s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d))).replace(/&amp;/g, '&');

export function docxText(data: Buffer): string {
  const xml = unzipEntry(data, 'word/document.xml');
  if (!xml) throw new Error('word/document.xml missing: not a docx file');
  return decodeXml(
    xml
      .toString('utf8')
      .replace(/<w:tab\/>/g, '\t')
      .replace(/<w:br\/>|<\/w:p>/g, '\n')
      .replace(/<[^>]+>/g, ''),
  )
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Text shown by Tj / TJ / ' operators in the (Flate-decoded) content streams; simple fonts only. */
export function pdfText(data: Buffer): string {
  if (data.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('not a pdf file');
  const src = data.toString('latin1');
  const out: string[] = [];
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(src))) {
    const start = m.index + m[0].length;
    const end = src.indexOf('endstream', start);
    if (end < 0) break;
    const dict = src.slice(Math.max(0, m.index - 300), m.index);
    let body = data.subarray(start, end);
    if (/FlateDecode/.test(dict.slice(dict.lastIndexOf('<<')))) {
      try { body = inflateSync(body, { maxOutputLength: MAX_INFLATE }); } catch { re.lastIndex = end; continue; }
    }
    out.push(...textOps(body.toString('latin1')));
    re.lastIndex = end;
  }
  return out.join('').replace(/[ \t]+\n/g, '\n').trim();
}

function pdfString(s: string): string {
  return s.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, e: string) =>
    ({ n: '\n', r: '\r', t: '\t', b: '', f: '', '(': '(', ')': ')', '\\': '\\' })[e] ?? String.fromCharCode(parseInt(e, 8)));
}

function textOps(content: string): string[] {
  const out: string[] = [];
  const re = /\[((?:[^\]\\]|\\.)*)\]\s*TJ|\(((?:[^()\\]|\\.)*)\)\s*(?:Tj|'|")|(T\*|ET|Td|TD)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(content))) {
    if (m[1] !== undefined) {
      const parts = m[1].match(/\(((?:[^()\\]|\\.)*)\)/g) ?? [];
      out.push(parts.map((p) => pdfString(p.slice(1, -1))).join(''));
    } else if (m[2] !== undefined) out.push(pdfString(m[2]));
    else if (m[3] === 'ET' || m[3] === 'T*' || m[3] === 'Td' || m[3] === 'TD') out.push('\n');
  }
  return out;
}
