import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** What the run ran on, written beside the figures (timings mean little without it). */
export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  chromium: string | null;
  loadAverage: number[];
}

const tryRun = (cmd: string, args: string[]): string | null => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
};

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    chromium: tryRun('/usr/bin/chromium', ['--version']),
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
}
