import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { zip } from '../../ai/parse/test-fixtures.js';
import { AppError } from '../../http/errors.js';
import { readSheet } from './sheet.js';

const fieldError = async (p: Promise<unknown>): Promise<string> => {
  const err = (await p.catch((e: unknown) => e)) as AppError;
  expect(err).toBeInstanceOf(AppError);
  expect(err.code).toBe(40001);
  const errors = (err.data as { errors: Array<{ field: string; message: string }> }).errors;
  expect(errors[0].field).toBe('file');
  return errors[0].message;
};

describe('readSheet', () => {
  it('CSV: header lower-cased and trimmed, BOM dropped, empty lines skipped, quoted commas and newlines kept', async () => {
    const csv = '\uFEFF Product_ID ;Title\nA-1; Mug \n\n  \nA-2;"杯子; large\nsecond line"\n';
    expect(await readSheet('p.CSV', Buffer.from(csv), 100)).toEqual([
      { product_id: 'A-1', title: 'Mug' },
      { product_id: 'A-2', title: '杯子; large\nsecond line' },
    ]);
  });

  it('CSV: stops reading one row past the limit, fast even for a large file', async () => {
    const big = Buffer.from(`a,b\n${'1,2\n'.repeat(500_000)}`);
    const t0 = performance.now();
    const rows = await readSheet('big.csv', big, 1000);
    expect(rows.length).toBe(1001);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('CSV: an unterminated quote is 40001 on file', async () => {
    expect(await fieldError(readSheet('p.csv', Buffer.from('a,b\n1,"2\n3,4\n'), 10))).toContain('CSV cannot be read');
  });

  it('XLSX: the first sheet, through the worker, limited the same way', { timeout: 30_000 }, async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('p');
    ws.addRow(['Group', 'Name']);
    for (let i = 0; i < 30; i++) ws.addRow([`g${i % 3}`, `item ${i}`]);
    wb.addWorksheet('other').addRow(['ignored']);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const rows = await readSheet('c.xlsx', data, 10);
    expect(rows.length).toBe(11);
    expect(rows[0]).toEqual({ group: 'g0', name: 'item 0' });
    expect((await readSheet('c.xlsx', data, 100)).length).toBe(30);
  });

  it('XLSX: a zip that holds xl/workbook.xml after the sheets is read too (the entry order is the writer’s)', { timeout: 30_000 }, async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('p');
    ws.addRow(['Group', 'Name']);
    for (let i = 0; i < 5; i++) ws.addRow([`g${i}`, `item ${i}`]);
    const entries = await unzipEntries(Buffer.from(await wb.xlsx.writeBuffer()));
    // shared strings and relations first, then the sheets, then the workbook
    const last = entries.filter((e) => e.name === 'xl/workbook.xml');
    const sheets = entries.filter((e) => /^xl\/worksheets\/sheet\d+\.xml$/.test(e.name));
    expect(last).toHaveLength(1);
    expect(sheets).toHaveLength(1);
    const reordered = await zip([...entries.filter((e) => !last.includes(e) && !sheets.includes(e)), ...sheets, ...last]);
    const rows = await readSheet('late.xlsx', reordered, 100);
    expect(rows).toHaveLength(5);
    expect(rows[4]).toEqual({ group: 'g4', name: 'item 4' });
  });

  it('other extensions and unreadable workbooks are 40001 on file', { timeout: 30_000 }, async () => {
    expect(await fieldError(readSheet('p.txt', Buffer.from('x'), 10))).toContain('.csv or .xlsx');
    expect(await fieldError(readSheet('p.xlsx', Buffer.from('not a zip'), 10))).toContain('cannot be read');
  });
});

/** Every entry of a zip, in its order (yauzl, as the server reads zips). */
function unzipEntries(buf: Buffer): Promise<Array<{ name: string; data: Buffer }>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, z) => {
      if (err || !z) return reject(err);
      const out: Array<{ name: string; data: Buffer }> = [];
      z.on('entry', (e: yauzl.Entry) =>
        z.openReadStream(e, (e2, rs) => {
          if (e2 || !rs) return reject(e2);
          const parts: Buffer[] = [];
          rs.on('data', (b: Buffer) => parts.push(b));
          rs.on('end', () => {
            out.push({ name: e.fileName, data: Buffer.concat(parts) });
            z.readEntry();
          });
        }),
      );
      z.on('end', () => resolve(out));
      z.on('error', reject);
      z.readEntry();
    });
  });
}
