/**
 * The server of the soak (scripts/soak.ts): the built server on its own, its garbage collected
 * every 5 s and its memory reported, and the resident set size of a process.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBuilt, SERVER_ENTRY } from './server-build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Memory {
  heap: number;
  external: number;
  buffers: number;
}
export interface Server {
  url: string;
  pid: number;
  /** the server's latest report of its own memory */
  memory: () => Memory | null;
  output: () => string;
  stop: () => Promise<void>;
  exited: () => boolean;
}

export async function startServer(env: Record<string, string>, admin: { email: string; password: string }): Promise<Server> {
  // every 5 s the server collects its garbage (a full GC) and reports its memory on stderr: RSS
  // then measures what the server keeps, not garbage V8 has not got round to collecting yet
  // (without it the JS heap climbs for minutes under this load and falls back at the next
  // major GC, which reads as a leak in a short run)
  const probe = `data:text/javascript,setInterval(()=>{globalThis.gc();const m=process.memoryUsage();process.stderr.write('SOAKMEM '+JSON.stringify({heap:m.heapUsed,external:m.external,buffers:m.arrayBuffers})+'\\n')},5000).unref()`;
  await ensureServerBuilt({ quiet: true });
  const child = spawn(process.execPath, ['--expose-gc', '--import', probe, SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '1',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      STATIC_DIR: path.join(ROOT, 'no-dist'),
      // one address sends everything here: the per-address request limit would refuse most of it
      RATE_LIMIT_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  let gone = false;
  let lastMemory: Memory | null = null;
  child.stdout.on('data', (d) => (text += d));
  child.stderr.on('data', (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (line.startsWith('SOAKMEM ')) {
        try {
          lastMemory = JSON.parse(line.slice(8)) as Memory;
        } catch {
          /* a line cut in two */
        }
      } else if (line) text += line + '\n';
    }
  });
  const done = new Promise<void>((r) => child.once('exit', () => ((gone = true), r())));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 180 s:\n${text}`)), 180_000);
    const check = () => {
      const m = /running at (http:\/\/\S+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before it started:\n${text}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    memory: () => lastMemory,
    output: () => text,
    exited: () => gone,
    async stop() {
      if (gone) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(t);
    },
  };
}

/** resident set size of a process in MB (Linux /proc; elsewhere `ps`) */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    /* not Linux */
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024;
}

