/**
 * Test documents built in memory: a zip writer (deflate, streamed for huge entries so a 200 MB
 * bomb needs no 200 MB of memory; sizes that lie; the encryption flag), DOCX around any
 * document.xml, and hand-written PDFs (text, Chinese text in a CID font, no text layer, encrypted).
 * Used by the unit tests here and the API tests; not part of the server.
 */
import { constants, crc32, createDeflateRaw, deflateRawSync, deflateSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data?: string | Buffer;
  /** instead of data: this many bytes of `fill`, deflated as a stream */
  zeros?: number;
  fill?: number;
  /** the uncompressed size written to the headers, when it should lie */
  declaredSize?: number;
  /** sets the "encrypted" flag (the data itself is not encrypted) */
  encrypted?: boolean;
}

async function deflateFill(bytes: number, fill: number): Promise<{ comp: Buffer; crc: number }> {
  const chunk = Buffer.alloc(1024 * 1024, fill);
  const z = createDeflateRaw({ level: constants.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  z.on('data', (b: Buffer) => out.push(b));
  const done = new Promise<void>((resolve, reject) => z.on('end', resolve).on('error', reject));
  let crc = 0;
  for (let left = bytes; left > 0; left -= chunk.length) {
    const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
    crc = crc32(part, crc);
    if (!z.write(part)) await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await done;
  return { comp: Buffer.concat(out), crc };
}

export async function zip(entries: ZipEntry[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    let comp: Buffer;
    let crc: number;
    let size: number;
    if (e.zeros !== undefined) {
      ({ comp, crc } = await deflateFill(e.zeros, e.fill ?? 0));
      size = e.zeros;
    } else {
      const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '', 'utf8');
      comp = deflateRawSync(data);
      crc = crc32(data);
      size = data.length;
    }
    size = e.declaredSize ?? size;
    const flags = 0x0800 | (e.encrypted ? 1 : 0); // UTF-8 names
    const n = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(comp.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(n.length, 26);
    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(0x02014b50, 0);
    cen.writeUInt16LE(20, 4);
    cen.writeUInt16LE(20, 6);
    cen.writeUInt16LE(flags, 8);
    cen.writeUInt16LE(8, 10);
    cen.writeUInt32LE(crc >>> 0, 16);
    cen.writeUInt32LE(comp.length, 20);
    cen.writeUInt32LE(size, 24);
    cen.writeUInt16LE(n.length, 28);
    cen.writeUInt32LE(offset, 42);
    locals.push(local, n, comp);
    central.push(cen, n);
    offset += local.length + n.length + comp.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const docxBody = (paragraphs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${paragraphs
    .map((p) => `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`)
    .join('')}</w:body></w:document>`;

/** A DOCX (the parts Word needs) around a document.xml; `extra` entries are added as they are. */
export function docx(documentXml: string | ZipEntry, extra: ZipEntry[] = []): Promise<Buffer> {
  const doc: ZipEntry = typeof documentXml === 'string' ? { name: 'word/document.xml', data: documentXml } : documentXml;
  return zip([
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    },
    doc,
    ...extra,
  ]);
}

/** document.xml with a billion-laughs DTD: 10 levels of 10× expansion, referenced in a paragraph. */
export function entityBombXml(levels = 10): string {
  const ents = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i < levels; i++) ents.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE w:document [${ents.join('')}]><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>start &lol${levels - 1}; end</w:t></w:r></w:p></w:body></w:document>`;
}

/** A PDF from its objects (1 = catalog), with a correct xref table and an Info dictionary. */
function pdfFile(objects: Array<string | Buffer>, trailerExtra = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let len = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(len);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), Buffer.isBuffer(o) ? o : Buffer.from(o, 'latin1'), Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(b);
    len += b.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${len}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

const stream = (content: Buffer) => Buffer.concat([Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'), content, Buffer.from('\nendstream', 'latin1')]);
const pdfStr = (s: string) => `(${s.replace(/[()\\]/g, (c) => `\\${c}`)})`;

/** Pages of text lines in Helvetica; `title` goes in the Info dictionary. */
export function pdf(pages: string[][], title?: string): Buffer {
  const n = pages.length;
  const objs: Array<string | Buffer> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ')}] /Count ${n} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  pages.forEach((lines, i) => {
    objs.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`);
    const ops = lines.length ? `BT /F1 12 Tf 14 TL 72 720 Td ${lines.map((l) => `${pdfStr(l)} Tj T*`).join(' ')} ET` : '0 0 1 rg 72 72 200 200 re f';
    objs.push(stream(deflateSync(Buffer.from(ops, 'latin1'))));
  });
  objs.push(`<< /Title ${pdfStr(title ?? '')} /Producer (test) >>`);
  return pdfFile(objs, `/Info ${objs.length} 0 R `);
}

/** One page of Chinese text in an unembedded CID font (Adobe-GB1, UCS-2 codes): needs the CMaps. */
export function pdfChinese(lines: string[]): Buffer {
  const hex = (s: string) => `<${Buffer.from(s, 'utf16le').swap16().toString('hex')}>`;
  const ops = `BT /F1 12 Tf 14 TL 72 720 Td ${lines.map((l) => `${hex(l)} Tj T*`).join(' ')} ET`;
  return pdfFile([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    stream(deflateSync(Buffer.from(ops, 'latin1'))),
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [6 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> /FontDescriptor 7 0 R >>',
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>',
  ]);
}

/** A PDF under the standard security handler whose user password is not empty (O and U are random). */
export function pdfEncrypted(): Buffer {
  const rnd = (n: number) => `<${Buffer.alloc(n, 0x5a).toString('hex')}>`;
  const objs = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>', `<< /Filter /Standard /V 1 /R 2 /O ${rnd(32)} /U ${rnd(32)} /P -4 >>`];
  return pdfFile(objs, `/Encrypt 3 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>] `);
}
