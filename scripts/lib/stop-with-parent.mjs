/**
 * `npm start` and `npm run worker` run this process as npm's grandchild (npm → `sh -c` → node).
 * Stopping `npm start` the way a supervisor does (docker stop, systemd, `kill <npm's pid>`) used
 * to leave the server running as an orphan, still holding its port, its jobs and PGlite's
 * data-dir lock, and PGlite never checkpointed:
 * - SIGTERM or SIGINT to npm: npm passes it on to the shell, which dies of it without passing it
 *   on, so this process's parent changes;
 * - kill -9 of npm: the shell lives on, waiting for this process, and npm is gone above it.
 * So, started by npm for this script, the process stops as on SIGTERM (the server's and the
 * worker's own handlers: stop taking work, hand running jobs over, checkpoint, close) once its
 * parent changes or, where /proc tells (Linux), once its parent's parent — npm — changes.
 * Ctrl-C in a terminal signals the whole process group and needs none of this. Checked twice a
 * second; the timer keeps nothing alive.
 */
import { readFileSync } from 'node:fs';

/** the parent of `pid` from /proc (Linux), or null where there is none to read */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

export function stopWithParent(script) {
  if (process.env.npm_lifecycle_event !== script) return;
  const parent = process.ppid;
  const npm = parentOf(parent);
  const timer = setInterval(() => {
    if (process.ppid === parent && (npm === null || parentOf(parent) === npm)) return;
    clearInterval(timer);
    console.error(`${script}: the npm process that started this one is gone; stopping as on SIGTERM`);
    process.kill(process.pid, 'SIGTERM');
  }, 500);
  timer.unref();
}
