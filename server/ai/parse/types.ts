import type { ParseErrorData } from './errors.js';
import type { ZipLimits } from './zip-guard.js';

export const DOC_FILE_TYPES = ['txt', 'md', 'html', 'pdf', 'docx', 'xlsx', 'csv'] as const;
export type DocFileType = (typeof DOC_FILE_TYPES)[number];
export const isDocFileType = (t: string): t is DocFileType => (DOC_FILE_TYPES as readonly string[]).includes(t);
/** The zip-based types, inspected before any parser sees them. */
export const ZIP_TYPES: readonly string[] = ['docx', 'xlsx'];

export interface ParsedDoc {
  text: string;
  pages?: number;
  title?: string;
  warnings?: string[];
}

export interface ParseOptions {
  /** wall-clock cap for one parse, queue wait excluded (default 30 s); the worker is terminated */
  timeoutMs?: number;
  /** V8 heap of the parse worker (default 256 MB) */
  maxMemoryMb?: number;
  /** longest text returned (default 5,000,000 characters); longer is too_large */
  maxChars?: number;
  zip?: Partial<ZipLimits>;
}

export type Cells = Record<string, string>;

/** What the server thread asks the worker to do (sent as workerData). */
export type Job =
  | { kind: 'doc'; fileType: DocFileType; bytes: Uint8Array; maxChars: number; zip: ZipLimits }
  | { kind: 'sheet'; bytes: Uint8Array; maxRows: number; zip: ZipLimits }
  /** every entry of a zip-based file inflated once (declared sizes, DTDs): the bytes it holds */
  | { kind: 'inflate'; label: string; bytes: Uint8Array; zip: ZipLimits };

export type JobResult = ParsedDoc | Cells[] | number;

export type WorkerReply = { ok: true; result: JobResult } | { ok: false; error: ParseErrorData };
