/**
 * `npm start` and `npm run worker` run this process as npm's grandchild (npm → `sh -c` → node).
 * npm passes a SIGTERM or SIGINT it gets on to that shell, and the shell dies of it without
 * passing it on, so stopping `npm start` the way a supervisor does (docker stop, systemd,
 * `kill <npm's pid>`) used to leave the server running as an orphan, still holding its port,
 * its jobs and PGlite's data-dir lock, and PGlite never checkpointed. A kill -9 of npm did the
 * same. So, started by npm for this script, the process stops when the process that started it
 * is gone, exactly as on SIGTERM (the server's and the worker's own handlers: stop taking work,
 * hand running jobs over, checkpoint, close). Ctrl-C in a terminal signals the whole process
 * group and needs none of this. Checked twice a second; the timer keeps nothing alive.
 */
export function stopWithParent(script) {
  if (process.env.npm_lifecycle_event !== script) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    console.error(`${script}: the npm process that started this one is gone; stopping as on SIGTERM`);
    process.kill(process.pid, 'SIGTERM');
  }, 500);
  timer.unref();
}
