/**
 * The one way an import route reads its upload (policy, session category, Douyin product, order /
 * session / mail imports, stored files): a multipart body with one file (≤ 10 MB) and plain
 * fields; then, for a sheet, its rows and the whole-file checks every importer makes the same way.
 * Anything wrong with the file as a whole is a 40001 naming `file`, before anything is written.
 */
import type { MultipartFile } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import { invalid } from '../../http/errors.js';
import type { RouteContext } from '../../http/route.js';
import { readSheet, type Cells } from './sheet.js';

export const FILE_MAX_BYTES = 10 * 1024 * 1024;

/** The counts an import of a sheet replies with (its reply schema's properties, beside its own) */
export const importCounts = {
  file: Type.String(),
  total: Type.Integer(),
  imported: Type.Integer(),
  skipped: Type.Integer(),
  failed: Type.Integer(),
};

export interface UploadedFile {
  name: string;
  type: string;
  data: Buffer;
}

const fileProblem = (message: string) => invalid([{ field: 'file', message }]);

/** Reads the one multipart file and the plain fields of a raw upload route. */
export async function readUpload(ctx: RouteContext, maxBytes = FILE_MAX_BYTES): Promise<{ file: UploadedFile; fields: Record<string, string> }> {
  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  if (!ctx.req.isMultipart()) throw fileProblem('please upload a file / 请上传文件');
  for await (const part of ctx.req.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
    if (part.type === 'file') {
      const f = part as MultipartFile;
      const data = await f.toBuffer().catch(() => null);
      const mb = Math.round(maxBytes / 1024 / 1024);
      if (!data || f.file.truncated) throw fileProblem(`file is larger than ${mb} MB / 文件不能超过 ${mb} MB`);
      file = { name: f.filename, type: f.mimetype || 'application/octet-stream', data };
    } else fields[part.fieldname] = String((part as { value: unknown }).value);
  }
  if (!file || !file.data.length) throw fileProblem('please upload a file / 请上传文件');
  return { file, fields };
}

/** The sheet's rows (header row → keys); none, or more than `maxRows`, refuses the file. */
export async function readSheetRows(file: UploadedFile, maxRows: number): Promise<Cells[]> {
  const rows = await readSheet(file.name, file.data, maxRows);
  if (!rows.length) throw fileProblem('the file has no data rows / 文件中没有数据行');
  if (rows.length > maxRows) throw fileProblem(`at most ${maxRows} rows per file / 每个文件最多 ${maxRows} 行`);
  return rows;
}

/** The header problems as "english / 中文" parts, joined by "; " (empty when the header is good). */
export function headerProblems(missing: readonly string[], unknown: readonly string[]): string[] {
  const out: string[] = [];
  if (missing.length) out.push(`missing required columns: ${missing.join(', ')} / 缺少必需的列：${missing.join('、')}`);
  if (unknown.length) out.push(`unknown columns: ${unknown.join(', ')} / 无法识别的列：${unknown.join('、')}`);
  return out;
}

/** Refuses a header that lacks a required column or has one not in `known`. */
export function checkHeader(columns: readonly string[], required: readonly string[], known: readonly string[]): void {
  const missing = required.filter((c) => !columns.includes(c));
  const unknown = columns.filter((c) => !known.includes(c));
  const problems = headerProblems(missing, unknown);
  if (problems.length) throw fileProblem(problems.join('; '));
}
