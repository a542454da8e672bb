/**
 * Runs one parse job in a fresh worker thread with a heap cap (`resourceLimits`), a wall-clock
 * cap and a watch on the process's resident memory (buffers live outside the V8 heap, so the
 * heap cap alone does not bound them); a worker over any cap is terminated. At most
 * PARSE_CONCURRENCY (default 2) workers run at once; the others wait their turn, and the time
 * cap starts when a job's worker starts.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PROJECT_ROOT, RUNS_BUILT } from '../../paths.js';
import { fromData, parseError, type ParseError } from './errors.js';
import type { Job, JobResult, WorkerReply } from './types.js';

export interface RunLimits {
  timeoutMs: number;
  maxMemoryMb: number;
}

const BOOT = pathToFileURL(path.join(PROJECT_ROOT, 'server/ai/parse/boot.mjs'));
/** worker.ts under tsx / vitest; the built server's own bundle of it (scripts/lib/server-build.mjs) */
const ENTRY = pathToFileURL(path.join(PROJECT_ROOT, RUNS_BUILT ? 'build/server/parse-worker.js' : 'server/ai/parse/worker.ts')).href;

const concurrency = Math.max(1, Number(process.env.PARSE_CONCURRENCY) || 2);
let running = 0;
const waiting: Array<() => void> = [];

async function acquire(): Promise<void> {
  if (running < concurrency) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/** How much the process may grow while a worker runs: the heap cap and room for its buffers. */
const rssBudget = (maxMemoryMb: number) => Math.max(512, 3 * maxMemoryMb) * 1024 * 1024;

function spawn(job: Job, limits: RunLimits): Promise<JobResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(BOOT, {
      workerData: { entry: ENTRY, job },
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, limits.maxMemoryMb / 8)) },
    });
    const base = process.memoryUsage.rss();
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(watch);
      fn();
      void worker.terminate();
    };
    const fail = (e: ParseError) => finish(() => reject(e));
    const timer = setTimeout(() => fail(parseError('timeout', `over ${Math.round(limits.timeoutMs / 100) / 10} s`)), limits.timeoutMs);
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - base > rssBudget(limits.maxMemoryMb)) fail(parseError('too_large', `needs more memory than a document may use`));
    }, 100);
    worker.on('message', (m: WorkerReply) => finish(() => (m.ok ? resolve(m.result) : reject(fromData(m.error)))));
    worker.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') fail(parseError('too_large', `needs more than ${limits.maxMemoryMb} MB of memory`));
      else fail(parseError('corrupt', `the parser failed: ${err.message.slice(0, 300)}`));
    });
    worker.on('exit', (code) => fail(parseError('corrupt', `the parser stopped (exit ${code})`)));
  });
}

export async function runJob(job: Job, limits: RunLimits): Promise<JobResult> {
  await acquire();
  try {
    return await spawn(job, limits);
  } finally {
    release();
  }
}
