import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A free TCP port on loopback (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface Child {
  proc: ChildProcess;
  /** resolves with the first stdout line that starts with `prefix` (the rest, parsed as JSON) */
  message<T>(prefix: string, timeoutMs?: number): Promise<T>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node --import tsx <script>` as a child. The child reports on stdout with lines
 * like `BENCH_READY {"port":1234}`; `stop()` sends SIGTERM (the server checkpoints and
 * closes its database), then SIGKILL after a grace period — by its own pid only.
 */
export function startTsx(script: string, args: string[], env: Record<string, string>, cwd: string): Child {
  return startNode(['--import', 'tsx', script, ...args], env, cwd, script);
}

/** `node <args>` as a child, with the same reporting and stop as startTsx (built JavaScript: no tsx). */
export function startNode(nodeArgs: string[], env: Record<string, string>, cwd: string, script = nodeArgs.join(' ')): Child {
  const proc = spawn(process.execPath, nodeArgs, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: Array<() => void> = [];
  const onData = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
    for (const w of waiters.splice(0)) w();
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    proc.once('exit', () => {
      exited = true;
      for (const w of waiters.splice(0)) w();
      resolve();
    }),
  );
  return {
    proc,
    output: () => out,
    message<T>(prefix: string, timeoutMs = 120_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${prefix} from ${script}\n${out.slice(-4000)}`)), timeoutMs);
        const check = () => {
          const line = out.split('\n').find((l) => l.startsWith(prefix + ' '));
          if (line) {
            clearTimeout(timer);
            resolve(JSON.parse(line.slice(prefix.length + 1)) as T);
          } else if (exited) {
            clearTimeout(timer);
            reject(new Error(`${script} exited before ${prefix}:\n${out.slice(-4000)}`));
          } else waiters.push(check);
        };
        check();
      });
    },
    async stop() {
      if (exited) return;
      proc.kill('SIGTERM');
      const grace = setTimeout(() => proc.kill('SIGKILL'), 30_000);
      await exit;
      clearTimeout(grace);
    },
  };
}
