/**
 * The rows of an uploaded CSV or XLSX file: the header row names the columns (trimmed,
 * lower-cased), cells are trimmed text, empty rows are skipped. A file that cannot be read is
 * a 40001 on `file`. Shared by every import (Douyin products, policies, session categories).
 */
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { invalid } from '../../http/errors.js';

export type Cells = Record<string, string>;

export async function readSheet(name: string, data: Buffer): Promise<Cells[]> {
  const ext = name.toLowerCase().split('.').pop();
  if (ext === 'csv') {
    const parsed = Papa.parse<Cells>(data.toString('utf8').replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: 'greedy',
      transformHeader: (h) => h.trim().toLowerCase(),
    });
    if (parsed.errors.some((e) => e.type === 'Delimiter' || e.type === 'Quotes')) {
      throw invalid([{ field: 'file', message: `the CSV cannot be read: ${parsed.errors[0].message}` }]);
    }
    return parsed.data.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v ?? '').trim()])));
  }
  if (ext === 'xlsx') {
    const wb = new ExcelJS.Workbook();
    try {
      await wb.xlsx.load(data as unknown as ArrayBuffer);
    } catch {
      throw invalid([{ field: 'file', message: 'the XLSX file cannot be read' }]);
    }
    const ws = wb.worksheets[0];
    if (!ws) return [];
    const header: string[] = [];
    ws.getRow(1).eachCell((c, i) => (header[i] = String(c.text ?? '').trim().toLowerCase()));
    const rows: Cells[] = [];
    ws.eachRow((row, n) => {
      if (n === 1) return;
      const r: Cells = {};
      header.forEach((h, i) => h && (r[h] = String(row.getCell(i).text ?? '').trim()));
      if (Object.values(r).some(Boolean)) rows.push(r);
    });
    return rows;
  }
  throw invalid([{ field: 'file', message: 'upload a .csv or .xlsx file / 请上传 CSV 或 XLSX 文件' }]);
}
