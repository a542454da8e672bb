/**
 * Real server processes for crash and multi-instance tests: the built server (build/server, as
 * `npm start` runs it: scripts/lib/server-build.mjs builds it once when stale) for
 * server/server.ts or server/worker.ts, with its own environment, killed for real (SIGKILL) when
 * a test says so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openPg } from '../../server/db/pg.js';
import { ensureServerBuilt, SERVER_ENTRY, WORKER_ENTRY } from '../../scripts/lib/server-build.mjs';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** kill -9: no shutdown hook runs */
  kill9(): Promise<void>;
  /** SIGTERM and wait for the exit */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));

/** Starts server/server.ts (or `entry`) and resolves when it prints its URL (or "worker" line). */
export async function spawnServer(env: Record<string, string>, entry = 'server/server.ts', timeoutMs = 180_000): Promise<ServerProcess> {
  await ensureServerBuilt({ quiet: true });
  const built = { 'server/server.ts': SERVER_ENTRY, 'server/worker.ts': WORKER_ENTRY }[entry];
  const child = spawn(process.execPath, built ? [built] : ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', SEED_DEMO: '0', STATIC_DIR: path.join(ROOT, 'no-dist'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${text}`)), timeoutMs);
    const check = () => {
      const m = /running at (http:\/\/[^\s]+)/.exec(text) ?? /(worker [^\s]+: up to \d+ jobs at once)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].startsWith('http') ? m[1] : '');
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before it started:\n${text}`));
    });
  });
  return {
    url,
    child,
    output: () => text,
    async kill9() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** A fresh schema on TEST_DATABASE_URL for server processes: DATABASE_URL + JOBS_SCHEMA, dropped by `drop()`. */
export async function pgSchemaEnv(pgUrl: string): Promise<{ env: Record<string, string>; schema: string; drop(): Promise<void> }> {
  const schema = `p_${randomBytes(6).toString('hex')}`;
  const admin = await openPg(pgUrl, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const u = new URL(pgUrl);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    schema,
    env: { DATABASE_URL: u.toString(), JOBS_SCHEMA: `${schema}_boss` },
    async drop() {
      const a = await openPg(pgUrl, { max: 1 });
      await a.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await a.query(`DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
      await a.close();
    },
  };
}
