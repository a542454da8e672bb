/**
 * DOCX through mammoth, XLSX through exceljs's streaming WorkbookReader. Both only after the zip
 * guard has inflated every entry once within its caps (`inflateAll`); they run in the worker.
 * mammoth's XML parser (@xmldom/xmldom) does not expand entities declared in a DTD, so a
 * billion-laughs document.xml stays as small as it is (tested).
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { parseError, ParseError } from './errors.js';
import type { Cells, ParsedDoc } from './types.js';
import { inflateAll, type ZipLimits } from './zip-guard.js';

export async function parseDocx(bytes: Uint8Array, zip: ZipLimits): Promise<ParsedDoc> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await inflateAll(buffer, 'docx', zip);
  try {
    const r = await mammoth.extractRawText({ buffer });
    const warnings = r.messages.map((m) => m.message).slice(0, 20);
    return { text: r.value, warnings };
  } catch (err) {
    throw parseError('corrupt', `DOCX: ${(err as Error).message}`);
  }
}

type SheetReader = ExcelJS.stream.xlsx.WorksheetReader & { name?: string };

function reader(bytes: Uint8Array): ExcelJS.stream.xlsx.WorkbookReader {
  const r = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  // exceljs reads a sheet as soon as its shared strings and relations are in, and then looks the
  // sheet's name up in the workbook model — which it has only once xl/workbook.xml was read. In
  // a file whose zip holds workbook.xml after the sheets (zip entry order is the writer's choice:
  // exceljs's own writer varies it) that look-up threw "Cannot read properties of undefined
  // (reading 'sheets')". An empty model until then: such a sheet is read, just without its name.
  const m = r as unknown as { model?: { sheets?: unknown[] } };
  m.model ??= { sheets: [] };
  return r;
}

const cellText = (c: ExcelJS.Cell): string => String(c.text ?? '').trim();

async function guarded<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ParseError) throw err;
    throw parseError('corrupt', `${what}: ${(err as Error).message}`);
  }
}

/** Every sheet as text: its name on a line, then one line per row with the cells separated by tabs. */
export async function parseXlsx(bytes: Uint8Array, zip: ZipLimits, maxChars: number): Promise<ParsedDoc> {
  await inflateAll(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'xlsx', zip);
  return guarded('XLSX', async () => {
    const parts: string[] = [];
    let chars = 0;
    let sheets = 0;
    for await (const ws of reader(bytes)) {
      sheets++;
      const lines: string[] = [];
      for await (const row of ws) {
        const cells: string[] = [];
        row.eachCell({ includeEmpty: true }, (c) => cells.push(cellText(c)));
        const line = cells.join('\t').trimEnd();
        if (!line) continue;
        lines.push(line);
        chars += line.length + 1;
        if (chars > maxChars) throw parseError('too_large', `the sheets hold more than ${maxChars} characters of text`);
      }
      if (lines.length) parts.push(`${(ws as SheetReader).name ?? `Sheet${sheets}`}\n${lines.join('\n')}`);
    }
    return { text: parts.join('\n\n'), pages: sheets };
  });
}

/**
 * The rows of the first sheet for an import: row 1 names the columns (trimmed, lower-cased),
 * cells are trimmed text, empty rows are skipped. Reading stops after `maxRows + 1` data rows,
 * so the caller sees that the limit was passed without the rest of the workbook being read.
 */
export async function readXlsxRows(bytes: Uint8Array, zip: ZipLimits, maxRows: number): Promise<Cells[]> {
  await inflateAll(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'xlsx', zip);
  return guarded('XLSX', async () => {
    const rows: Cells[] = [];
    for await (const ws of reader(bytes)) {
      const header: string[] = [];
      for await (const row of ws) {
        if (row.number === 1) {
          row.eachCell((c, i) => (header[i] = cellText(c).toLowerCase()));
          continue;
        }
        const r: Cells = {};
        header.forEach((h, i) => h && (r[h] = cellText(row.getCell(i))));
        if (!Object.values(r).some(Boolean)) continue;
        rows.push(r);
        if (rows.length > maxRows) break;
      }
      break; // the first sheet only
    }
    return rows;
  });
}
