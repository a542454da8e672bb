/**
 * The parse worker: one job (workerData.job), one reply, then the thread ends. Started by
 * `run.ts` with a heap cap and a time cap, so whatever a document does here cannot stall or
 * crash the server thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isParseError, parseError, toData } from './errors.js';
import type { Job, JobResult, ParsedDoc, WorkerReply } from './types.js';

/**
 * Line ends as \n, no NUL or other control characters (PostgreSQL text refuses NUL), no trailing
 * spaces, at most one blank line in a row.
 */
function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/[ \t\u00a0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Each parser library is loaded only by the worker that needs it (pdf.js alone is 2 MB of code). */
async function parse(job: Extract<Job, { kind: 'doc' }>): Promise<ParsedDoc> {
  const { bytes } = job;
  switch (job.fileType) {
    case 'txt':
      return (await import('./text-formats.js')).parseTxt(bytes);
    case 'md':
      return (await import('./text-formats.js')).parseMd(bytes);
    case 'html':
      return (await import('./text-formats.js')).parseHtml(bytes);
    case 'csv':
      return (await import('./text-formats.js')).parseCsv(bytes);
    case 'pdf':
      return (await import('./pdf.js')).parsePdf(bytes);
    case 'docx':
      return (await import('./office.js')).parseDocx(bytes, job.zip);
    case 'xlsx':
      return (await import('./office.js')).parseXlsx(bytes, job.zip, job.maxChars);
  }
}

/** Clean text, the character cap and the empty check, the same for every type. */
async function parseDoc(job: Extract<Job, { kind: 'doc' }>): Promise<ParsedDoc> {
  const doc = await parse(job);
  const text = cleanText(doc.text);
  if (text.length > job.maxChars) throw parseError('too_large', `${text.length} characters of text, at most ${job.maxChars}`);
  if (!text) throw parseError('no_text', `the ${job.fileType} file holds no text`);
  const out: ParsedDoc = { text };
  if (doc.pages !== undefined) out.pages = doc.pages;
  if (doc.title) out.title = doc.title.slice(0, 255);
  if (doc.warnings?.length) out.warnings = doc.warnings;
  return out;
}

async function run(job: Job): Promise<JobResult> {
  if (job.kind === 'inflate') {
    const { bytes } = job;
    return (await import('./zip-guard.js')).inflateAll(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), job.label, job.zip);
  }
  return job.kind === 'doc' ? parseDoc(job) : (await import('./office.js')).readXlsxRows(job.bytes, job.zip, job.maxRows);
}

const reply = (m: WorkerReply) => parentPort!.postMessage(m);

run((workerData as { job: Job }).job).then(
  (result) => reply({ ok: true, result }),
  (err: unknown) =>
    reply({ ok: false, error: toData(isParseError(err) ? err : parseError('corrupt', String((err as Error)?.message ?? err).slice(0, 300))) }),
);
