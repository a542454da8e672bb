// @db pglite — the PGlite data-dir lock
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureServerBuilt, SERVER_ENTRY } from '../../scripts/lib/server-build.mjs';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, acquireDataDirLock } from '../../server/db/lock.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-lock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('PGlite data-dir lock', () => {
  it('a second holder is refused with a message naming the dir and pid', () => {
    const release = acquireDataDirLock(dir);
    try {
      let err: unknown;
      try {
        acquireDataDirLock(dir, process.pid + 1);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DataDirLockedError);
      expect((err as Error).message).toContain(dir);
      expect((err as Error).message).toContain(`pid ${process.pid}`);
    } finally {
      release();
    }
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('a stale lock from a dead process is taken over', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = child.pid!;
    await new Promise((r) => child.on('exit', r));
    fs.writeFileSync(path.join(dir, LOCK_FILE), `${deadPid}\n`);
    const release = acquireDataDirLock(dir);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    release();
  });

  it('a second server process on the same DATA_DIR exits with a clear message', async () => {
    await ensureServerBuilt({ quiet: true });
    const release = acquireDataDirLock(dir);
    try {
      const out = await new Promise<{ code: number | null; text: string }>((resolve) => {
        const p = spawn(process.execPath, [SERVER_ENTRY], {
          env: { ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' },
          cwd: path.resolve(import.meta.dirname, '../..'),
        });
        let text = '';
        p.stdout.on('data', (d) => (text += d));
        p.stderr.on('data', (d) => (text += d));
        p.on('exit', (code) => resolve({ code, text }));
      });
      expect(out.code).toBe(1);
      expect(out.text).toContain(`The data directory ${dir} is in use by another process (pid ${process.pid})`);
    } finally {
      release();
    }
  });

  // a supervisor stops `npm start` by signalling npm (docker stop, systemd, kill <pid>): npm passes
  // a SIGTERM to its `sh -c`, which dies without passing it on; after a kill -9 of npm the shell
  // lives on and npm is gone above it (scripts/lib/stop-with-parent.mjs)
  it.each(['SIGTERM', 'SIGKILL'] as const)('`npm start` stops with npm: %s to npm closes the server and frees the data dir', async (signal) => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-npm-start-'));
    const npm = spawn('npm', ['start'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, DATA_DIR: data, PORT: '0', SEED_DEMO: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so the cleanup below reaches npm, the shell and node
    });
    let text = '';
    npm.stdout.on('data', (d) => (text += d));
    npm.stderr.on('data', (d) => (text += d));
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const until = async (what: string, ok: () => boolean, ms: number) => {
      for (const end = Date.now() + ms; !ok(); await new Promise((r) => setTimeout(r, 50))) {
        if (Date.now() > end) throw new Error(`${what} within ${ms} ms; output:\n${text.slice(-2000)}`);
      }
    };
    try {
      await until('npm start listening', () => /is running at http/.test(text), 150_000);
      // the server holds the lock: its pid is not npm's
      const server = Number(fs.readFileSync(path.join(data, LOCK_FILE), 'utf8').trim());
      expect(server).not.toBe(npm.pid);
      process.kill(npm.pid!, signal);
      await until('the server gone after npm', () => !alive(server), 30_000);
      // closed the way SIGTERM closes it: the database checkpointed and closed, the lock removed
      expect(fs.existsSync(path.join(data, LOCK_FILE))).toBe(false);
      expect(text).toContain('the npm process that started this one is gone');
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        /* the group is gone */
      }
      fs.rmSync(data, { recursive: true, force: true });
    }
  }, 200_000);
});
