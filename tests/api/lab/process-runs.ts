/**
 * What the process-level run tests (runs-crash, runs-sigterm) share: the engine each case runs
 * on, a fresh database for a spawned server on it, and signing in as the harness's admin.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiClient, ADMIN_EMAIL } from '../harness.js';
import { pgSchemaEnv } from '../process.js';

const pgUrl = process.env.TEST_DATABASE_URL;

/** [engine, runs in this step]: each engine's case runs in its own step (docs/testing.md), the PGlite case in the PGlite run */
export const BACKENDS: Array<[string, boolean]> = [
  ['PGlite', !pgUrl],
  ['PostgreSQL', !!pgUrl],
];

/** a fresh database for spawned servers on `engine`: a PGlite data dir, or a PostgreSQL schema */
export async function freshDatabase(engine: string, prefix: string): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  if (engine === 'PGlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    return { env: { DATA_DIR: dir }, cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const pg = await pgSchemaEnv(pgUrl!);
  return { env: pg.env, cleanup: () => pg.drop() };
}

export async function signIn(url: string, password: string): Promise<ApiClient> {
  const c = new ApiClient(url);
  const r = await c.post('user/login', { email: ADMIN_EMAIL, password });
  if (r.body.code !== 10000) throw new Error(`login failed: ${JSON.stringify(r.body)}`);
  return c;
}
