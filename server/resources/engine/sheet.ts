/**
 * The rows of an uploaded CSV or XLSX file: the header row names the columns (trimmed,
 * lower-cased), cells are trimmed text, empty rows are skipped. A file that cannot be read is
 * a 40001 on `file`. Shared by every import (Douyin products, policies, session categories).
 *
 * Reading stops after `maxRows + 1` data rows, so a caller checking `rows.length > maxRows` sees
 * the limit passed without the rest of the file being parsed. An XLSX passes the zip guard and is
 * read by exceljs's streaming reader in a worker thread with memory and time caps (server/ai/parse).
 */
import Papa from 'papaparse';
import { readSheetRows } from '../../ai/parse/index.js';
import { invalid } from '../../http/errors.js';

export type Cells = Record<string, string>;

function readCsv(data: Buffer, maxRows: number): Cells[] {
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  // papaparse guesses the delimiter by parsing the whole input once per candidate: guess it on a prefix
  const delimiter = Papa.parse(text.slice(0, 64 * 1024), { preview: 10, skipEmptyLines: 'greedy' }).meta.delimiter;
  const rows: Cells[] = [];
  let failure: string | null = null;
  Papa.parse<Cells>(text, {
    delimiter,
    chunkSize: 256 * 1024, // parse piecewise, so abort() stops the reading
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim().toLowerCase(),
    step: (result, parser) => {
      const bad = result.errors.find((e) => e.type === 'Delimiter' || e.type === 'Quotes');
      if (bad) {
        failure = bad.message;
        parser.abort();
        return;
      }
      rows.push(Object.fromEntries(Object.entries(result.data).map(([k, v]) => [k, String(v ?? '').trim()])));
      if (rows.length > maxRows) parser.abort();
    },
  });
  if (failure) throw invalid([{ field: 'file', message: `the CSV cannot be read: ${failure} / 无法读取 CSV 文件` }]);
  return rows;
}

export async function readSheet(name: string, data: Buffer, maxRows: number): Promise<Cells[]> {
  const ext = name.toLowerCase().split('.').pop();
  if (ext === 'csv') return readCsv(data, maxRows);
  if (ext === 'xlsx') return readSheetRows(data, maxRows);
  throw invalid([{ field: 'file', message: 'upload a .csv or .xlsx file / 请上传 CSV 或 XLSX 文件' }]);
}
