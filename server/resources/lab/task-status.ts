/**
 * Status rules of test, rating and experiment (training) tasks (spec section 4: pending,
 * running, finished, stopped, pausing; the spec does not show the transitions — ours are in
 * docs/modules/lab.md). Pure functions, shared by every task resource.
 */
export const TASK_STATUSES = ['pending', 'running', 'finished', 'stopped', 'pausing'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_MODES = ['manual', 'immediate', 'schedule'] as const;
export type TaskMode = (typeof TASK_MODES)[number];

/** Actions a person can take on a task (`finish` is the runner's, when the last sample is done). */
export type TaskAction = 'start' | 'pause' | 'stop' | 'finish';

/** from-status → the status each allowed action leads to. */
export const TRANSITIONS: Record<TaskStatus, Partial<Record<TaskAction, TaskStatus>>> = {
  pending: { start: 'running', stop: 'stopped' },
  running: { pause: 'pausing', stop: 'stopped', finish: 'finished' },
  pausing: { start: 'running', stop: 'stopped' },
  finished: {},
  stopped: {},
};

/** The status after `action`, or null when the action is not allowed from `from`. */
export function nextStatus(from: TaskStatus, action: TaskAction): TaskStatus | null {
  return TRANSITIONS[from]?.[action] ?? null;
}

/** Actions allowed from a status (for the UI and the error message). */
export function allowedActions(from: TaskStatus): TaskAction[] {
  return Object.keys(TRANSITIONS[from] ?? {}) as TaskAction[];
}

/** A task's settings (name, dataset, prompt…) can be edited only before it has run. */
export const canEdit = (s: TaskStatus): boolean => s === 'pending';

/** A running task must be paused or stopped before it is deleted. */
export const canDelete = (s: TaskStatus): boolean => s !== 'running';

/** The status a new task starts in: an `immediate` task starts running at once. */
export const initialStatus = (mode: TaskMode): TaskStatus => (mode === 'immediate' ? 'running' : 'pending');
