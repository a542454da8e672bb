/**
 * Call-task statuses (spec section 4) and their transitions, as pure functions.
 *
 * Actions: start (pending | pausing → running), pause (running → pausing), stop (pending | running
 * | pausing → stopped). Anything else is illegal (the routes answer 40009).
 *
 * The call window is `window_start` – `latest_call_time`, local time of the scene's time zone: a
 * running task places calls only inside it (`inWindow`).
 *
 * The overrun rule ("a call task that overruns its latest call time is paused and resumes the next
 * day"): `tick(task, now)` pauses a running task once the local time of day (in the scene's time
 * zone) reaches its latest call time, with `resume_at` = the next local day at the window start
 * (`window_start`, 09:00 by default); a task paused that way runs again once `resume_at` has
 * passed. A task paused by hand is never resumed automatically. A scheduled task that is pending
 * starts when its `start_at` has passed. The campaign ticker (server/resources/voice/calls/campaign.ts) applies
 * `tick` every two seconds with the engine's clock.
 */
export const TASK_STATUSES = ['pending', 'running', 'finished', 'stopped', 'pausing'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_MODES = ['manual', 'immediate', 'schedule'] as const;
export type TaskMode = (typeof TASK_MODES)[number];
export const TASK_ACTIONS = ['start', 'pause', 'stop'] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];
export type PauseReason = 'manual' | 'overrun';

const ALLOWED: Record<TaskAction, { from: readonly TaskStatus[]; to: TaskStatus }> = {
  start: { from: ['pending', 'pausing'], to: 'running' },
  pause: { from: ['running'], to: 'pausing' },
  stop: { from: ['pending', 'running', 'pausing'], to: 'stopped' },
};

/** Statuses in which the task's settings may still be edited. */
export const EDITABLE_STATUSES: readonly TaskStatus[] = ['pending', 'pausing'];

export interface TaskState {
  status: TaskStatus;
  mode: TaskMode;
  start_at: string | Date | null;
  /** `HH:MM`, local time of the scene's time zone */
  latest_call_time: string;
  /** `HH:MM`: the daily opening of the call window (default 09:00) */
  window_start?: string | null;
  pause_reason: PauseReason | null;
  resume_at: string | Date | null;
}

export interface TaskChange {
  status: TaskStatus;
  pause_reason: PauseReason | null;
  resume_at: string | null;
}

/** The status an action leads to, or null when the action is not allowed from `status`. */
export function transition(status: TaskStatus, action: TaskAction): TaskStatus | null {
  const rule = ALLOWED[action];
  return rule.from.includes(status) ? rule.to : null;
}

/** The change an action makes (status + pause bookkeeping), or null when illegal. */
export function applyAction(task: Pick<TaskState, 'status'>, action: TaskAction): TaskChange | null {
  const to = transition(task.status, action);
  if (!to) return null;
  return { status: to, pause_reason: action === 'pause' ? 'manual' : null, resume_at: null };
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** Local calendar parts of an instant in an IANA time zone. */
export function localParts(at: Date, timeZone: string): LocalParts {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return { year: Number(p.year), month: Number(p.month), day: Number(p.day), hour: Number(p.hour) % 24, minute: Number(p.minute) };
}

/** True when `tz` is an IANA time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The instant of a local wall-clock time in a time zone (two passes cover DST changes). */
export function zonedTime(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let guess = wall;
  for (let i = 0; i < 2; i++) {
    const p = localParts(new Date(guess), timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    guess += wall - shown;
  }
  return new Date(guess);
}

export const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

export const DEFAULT_WINDOW_START = '09:00';

/** When a task that overran at `now` resumes: the next local day at its window start. */
export function nextResume(task: Pick<TaskState, 'window_start'>, now: Date, timeZone: string): Date {
  const today = localParts(now, timeZone);
  const next = new Date(Date.UTC(today.year, today.month - 1, today.day + 1));
  const start = minutesOf(task.window_start || DEFAULT_WINDOW_START);
  return zonedTime(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), Math.floor(start / 60), start % 60, timeZone);
}

/** True when the local time of day at `now` is inside the call window [window_start, latest_call_time). */
export function inWindow(task: Pick<TaskState, 'window_start' | 'latest_call_time'>, now: Date, timeZone: string): boolean {
  const p = localParts(now, timeZone);
  const m = p.hour * 60 + p.minute;
  return m >= minutesOf(task.window_start || DEFAULT_WINDOW_START) && m < minutesOf(task.latest_call_time);
}

/** True when the local time of day at `now` is at or past the latest call time. */
export function isPastLatest(latest: string, now: Date, timeZone: string): boolean {
  const p = localParts(now, timeZone);
  return p.hour * 60 + p.minute >= minutesOf(latest);
}

/**
 * The automatic change due at `now` (overrun pause, next-day resume, scheduled start), or null.
 * A resumed or started task that is already past its latest call time pauses again at once.
 */
export function tick(task: TaskState, now: Date, timeZone: string): TaskChange | null {
  if (task.status === 'pending' && task.mode === 'schedule' && task.start_at && new Date(task.start_at) <= now) {
    return tick({ ...task, status: 'running', pause_reason: null, resume_at: null }, now, timeZone) ?? { status: 'running', pause_reason: null, resume_at: null };
  }
  if (task.status === 'running' && isPastLatest(task.latest_call_time, now, timeZone)) {
    return { status: 'pausing', pause_reason: 'overrun', resume_at: nextResume(task, now, timeZone).toISOString() };
  }
  if (task.status === 'pausing' && task.pause_reason === 'overrun' && task.resume_at && new Date(task.resume_at) <= now) {
    if (isPastLatest(task.latest_call_time, now, timeZone)) {
      return { status: 'pausing', pause_reason: 'overrun', resume_at: nextResume(task, now, timeZone).toISOString() };
    }
    return { status: 'running', pause_reason: null, resume_at: null };
  }
  return null;
}
