/** parseDocument through the worker: each format, each failure reason, the caps, the event loop. */
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.js';
import { parseDocument, ParseError, precheckUpload, readSheetRows, type ParseReason } from './index.js';
import { docx, docxBody, entityBombXml, pdf, pdfChinese, pdfEncrypted, zip } from './test-fixtures.js';

const MB = 1024 * 1024;
const T = { timeout: 30_000 };

async function failure(p: Promise<unknown>): Promise<{ reason: ParseReason; message: string }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ParseError);
  const { reason, message } = err as ParseError;
  expect(message).toMatch(/^[ -~]+ \/ .*[\u4e00-\u9fff]/); // "english / 中文"
  return { reason, message };
}

/** The longest the event loop was blocked while `p` ran (a 5 ms timer that should tick on time). */
async function maxLag(p: Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 5);
    last = now;
  }, 5);
  await p.catch(() => undefined);
  clearInterval(timer);
  return worst;
}

async function xlsx(sheets: Record<string, unknown[][]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) wb.addWorksheet(name).addRows(rows);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('text formats', () => {
  it('txt: UTF-8 with or without BOM, GB18030 with a warning; control characters and NUL removed', T, async () => {
    expect(await parseDocument('txt', Buffer.from('\uFEFFReturns: 30 days.\r\nRefund\u0000 in 5 days.'))).toEqual({ text: 'Returns: 30 days.\nRefund in 5 days.' });
    const gbk = Buffer.from([0xcd, 0xcb, 0xbb, 0xf5, 0xd5, 0xfe, 0xb2, 0xdf]); // 退货政策 in GB18030
    const r = await parseDocument('TXT', gbk);
    expect(r.text).toBe('退货政策');
    expect(r.warnings?.[0]).toContain('GB18030');
  });

  it('md keeps its markup and takes the first heading as title; html drops scripts and takes <title>', T, async () => {
    expect(await parseDocument('md', Buffer.from('Intro\n\n## 退货政策\n\n- 七天无理由'))).toEqual({ text: 'Intro\n\n## 退货政策\n\n- 七天无理由', title: '退货政策' });
    const html = '<html><head><title>Shipping FAQ</title><style>p{}</style><script>alert(1)</script></head><body><h1>Shipping</h1><p>Express: <b>1-2</b> days.</p><ul><li>Free over $50</li></ul></body></html>';
    const r = await parseDocument('html', Buffer.from(html));
    expect(r.title).toBe('Shipping FAQ');
    expect(r.text).toContain('Express: 1-2 days.');
    expect(r.text).toContain('Free over $50');
    expect(r.text).not.toMatch(/alert|p\{\}|Shipping FAQ/);
  });

  it('csv: one line per row, cells separated by tabs', T, async () => {
    expect((await parseDocument('csv', Buffer.from('question,answer\n"Ship, when?",In 2 days\n'))).text).toBe('question\tanswer\nShip, when?\tIn 2 days');
  });

  it('refuses an unknown type, an empty file, and text over maxChars', T, async () => {
    expect((await failure(parseDocument('exe', Buffer.from('MZ')))).reason).toBe('unsupported');
    expect((await failure(parseDocument('txt', Buffer.alloc(0)))).reason).toBe('no_text');
    expect((await failure(parseDocument('txt', Buffer.from(' \n\t ')))).reason).toBe('no_text');
    expect((await failure(parseDocument('txt', Buffer.from('x'.repeat(1000)), { maxChars: 100 }))).reason).toBe('too_large');
  });
});

describe('pdf', () => {
  it('reads the text of every page, the page count and the title', T, async () => {
    const r = await parseDocument('pdf', pdf([['Returns within 30 days.', 'Refunds in 5 days.'], ['Page two: warranty 1 year.']], 'Store policy'));
    expect(r).toEqual({ text: 'Returns within 30 days.\nRefunds in 5 days.\n\nPage two: warranty 1 year.', pages: 2, title: 'Store policy' });
  });

  it('reads Chinese text in a CID font (CMaps)', T, async () => {
    expect((await parseDocument('pdf', pdfChinese(['退货政策：七天无理由退货。', '运费由买家承担。']))).text).toBe('退货政策：七天无理由退货。\n运费由买家承担。');
  });

  it('no text layer is no_text (scanned), a password is encrypted, garbage is corrupt', T, async () => {
    const scanned = await failure(parseDocument('pdf', pdf([[], []])));
    expect(scanned).toMatchObject({ reason: 'no_text' });
    expect(scanned.message).toContain('OCR');
    expect(scanned.message).toContain('扫描');
    expect((await failure(parseDocument('pdf', pdfEncrypted()))).reason).toBe('encrypted');
    expect((await failure(parseDocument('pdf', Buffer.from('%PDF-1.7\nnothing here')))).reason).toBe('corrupt');
    expect((await failure(parseDocument('pdf', Buffer.from('<html>not a pdf</html>')))).reason).toBe('corrupt');
  });

  it('warns about pages without text among pages with text', T, async () => {
    const r = await parseDocument('pdf', pdf([['Cover text.'], []]));
    expect(r.text).toBe('Cover text.');
    expect(r.warnings?.[0]).toMatch(/1 of 2 pages/);
  });
});

describe('docx', () => {
  it('reads paragraphs in English and Chinese', T, async () => {
    const r = await parseDocument('docx', await docx(docxBody(['Warranty: 12 months & free repairs.', '保修期一年，免费维修。'])));
    expect(r.text).toBe('Warranty: 12 months & free repairs.\n\n保修期一年，免费维修。');
  });

  it('refuses a billion-laughs document.xml before mammoth sees it; mammoth alone does not expand it either', T, async () => {
    const bomb = await docx(entityBombXml());
    expect((await failure(parseDocument('docx', bomb))).reason).toBe('bomb');
    // second line of defence: @xmldom/xmldom ignores DTD entities (no expansion, no memory growth)
    const rss0 = process.memoryUsage.rss();
    const t0 = performance.now();
    const direct = await mammoth.extractRawText({ buffer: bomb }).then(
      (r) => r.value,
      (e: Error) => e.message,
    );
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(direct.length).toBeLessThan(1000);
    expect(direct).not.toContain('lollol');
    expect(process.memoryUsage.rss() - rss0).toBeLessThan(100 * MB);
  });

  it('refuses a 200 MB zip bomb and one whose directory lies, without blocking the event loop', T, async () => {
    const bomb = await docx({ name: 'word/document.xml', zeros: 200 * MB, fill: 0x20 });
    expect((await failure(parseDocument('docx', bomb))).reason).toBe('bomb');
    const liar = await docx({ name: 'word/document.xml', zeros: 100 * MB, fill: 0x20, declaredSize: 2000 });
    const p = parseDocument('docx', liar);
    // inflating 100 MB on the main thread stalls it for seconds; the worker keeps the loop free
    // (the bound leaves room for a loaded CI machine, where timers alone lag a few hundred ms)
    expect(await maxLag(p)).toBeLessThan(1000);
    expect((await failure(p)).reason).toBe('bomb');
  });

  it('an encrypted or corrupt docx says so', T, async () => {
    expect((await failure(parseDocument('docx', await zip([{ name: 'word/document.xml', data: docxBody(['x']), encrypted: true }])))).reason).toBe('encrypted');
    expect((await failure(parseDocument('docx', Buffer.from('PK\u0003\u0004 truncated')))).reason).toBe('corrupt');
    expect((await failure(parseDocument('docx', await zip([{ name: 'hello.txt', data: 'no document here' }])))).reason).toBe('corrupt');
  });
});

describe('xlsx', () => {
  it('reads every sheet as text with its name', T, async () => {
    const file = await xlsx({ 退货: [['问题', '答案'], ['几天可以退货？', '7 天']], Shipping: [['Carrier', 'Days'], ['SF Express', 2]] });
    expect((await parseDocument('xlsx', file)).text).toBe('退货\n问题\t答案\n几天可以退货？\t7 天\n\nShipping\nCarrier\tDays\nSF Express\t2');
  });

  it('readSheetRows: header row, trimmed cells, empty rows skipped, reading stops past maxRows', T, async () => {
    const rows = [[' Product_ID ', 'Title'], ['A-1', ' Mug '], [], ['A-2', '杯子'], ...Array.from({ length: 50 }, (_, i) => [`B-${i}`, `t${i}`])];
    const file = await xlsx({ p: rows });
    const all = await readSheetRows(file, 1000);
    expect(all.length).toBe(52);
    expect(all.slice(0, 2)).toEqual([{ product_id: 'A-1', title: 'Mug' }, { product_id: 'A-2', title: '杯子' }]);
    expect((await readSheetRows(file, 10)).length).toBe(11);
  });

  it('readSheetRows refuses a bomb and a broken file as 40001 on file', T, async () => {
    const bomb = await zip([{ name: 'xl/worksheets/sheet1.xml', zeros: 60 * MB, fill: 0x20 }]);
    for (const bad of [bomb, Buffer.from('not a workbook')]) {
      const err = (await readSheetRows(bad, 100).catch((e: unknown) => e)) as AppError;
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe(40001);
      expect((err.data as { errors: Array<{ field: string }> }).errors[0].field).toBe('file');
    }
  });
});

describe('caps and checks', () => {
  it('a parse over its time cap is stopped: timeout', T, async () => {
    const r = await failure(parseDocument('pdf', pdf([['slow']]), { timeoutMs: 50 }));
    expect(r.reason).toBe('timeout');
  });

  it('a document needing more heap than the cap ends the worker, not the process: too_large', T, async () => {
    const words = ['return', 'refund', 'warranty', 'shipping', 'express', 'policy', 'order', 'days'];
    const para = () => Array.from({ length: 200 }, () => words[randomInt(words.length)]).join(' ');
    const big = await docx(docxBody(Array.from({ length: 4000 }, para))); // ~25 MB of XML, compressing ~4:1
    const r = await failure(parseDocument('docx', big, { maxMemoryMb: 48 }));
    expect(r.reason).toBe('too_large');
    expect((await parseDocument('txt', Buffer.from('still working'))).text).toBe('still working');
  });

  it('the worker also starts under the server\'s own start (node --import tsx), not only under vitest', T, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parse-'));
    try {
      const index = fileURLToPath(new URL('./index.ts', import.meta.url));
      const script = join(dir, 'run.mts'); // an ES module, for the top-level await
      writeFileSync(script, `import { parseDocument } from ${JSON.stringify(index)};\nconsole.log(JSON.stringify(await parseDocument('md', Buffer.from('# Hi'))));\n`);
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { cwd: fileURLToPath(new URL('../../..', import.meta.url)) });
      expect(JSON.parse(stdout)).toEqual({ text: '# Hi', title: 'Hi' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parses run side by side (queued two at a time) and all finish', T, async () => {
    const docs = await Promise.all([1, 2, 3, 4].map((i) => parseDocument('txt', Buffer.from(`doc ${i}`))));
    expect(docs.map((d) => d.text)).toEqual(['doc 1', 'doc 2', 'doc 3', 'doc 4']);
  });

  it('precheckUpload: a bomb or a broken archive is 40001 on file; good files and text types pass', T, async () => {
    const bomb = await docx({ name: 'word/document.xml', zeros: 200 * MB, fill: 0x20 });
    const err = (await precheckUpload('docx', bomb).catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe(40001);
    expect(err.data).toEqual({ errors: [{ field: 'file', message: expect.stringContaining('zip or XML bomb') }] });
    expect(((await precheckUpload('pdf', Buffer.from('MZ')).catch((e: unknown) => e)) as AppError).code).toBe(40001);
    await expect(precheckUpload('docx', await docx(docxBody(['ok'])))).resolves.toBeUndefined();
    await expect(precheckUpload('pdf', pdf([['ok']]))).resolves.toBeUndefined();
    await expect(precheckUpload('txt', Buffer.from('anything'))).resolves.toBeUndefined();
  });
});
