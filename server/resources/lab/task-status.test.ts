import { describe, expect, it } from 'vitest';
import { TASK_STATUSES, allowedActions, canDelete, canEdit, initialStatus, nextStatus, type TaskAction } from './task-status.js';

describe('task status transitions', () => {
  it('allows exactly the documented moves', () => {
    const table: Record<string, string> = {};
    for (const s of TASK_STATUSES) for (const a of ['start', 'pause', 'stop', 'finish'] as TaskAction[]) {
      const n = nextStatus(s, a);
      if (n) table[`${s}.${a}`] = n;
    }
    expect(table).toEqual({
      'pending.start': 'running',
      'pending.stop': 'stopped',
      'running.pause': 'pausing',
      'running.stop': 'stopped',
      'running.finish': 'finished',
      'pausing.start': 'running',
      'pausing.stop': 'stopped',
    });
  });

  it('finished and stopped are final', () => {
    expect(allowedActions('finished')).toEqual([]);
    expect(allowedActions('stopped')).toEqual([]);
    expect(nextStatus('finished', 'start')).toBeNull();
    expect(nextStatus('pending', 'pause')).toBeNull();
  });

  it('edit only while pending, delete unless running; immediate tasks start running', () => {
    expect(TASK_STATUSES.filter(canEdit)).toEqual(['pending']);
    expect(TASK_STATUSES.filter((s) => !canDelete(s))).toEqual(['running']);
    expect(initialStatus('immediate')).toBe('running');
    expect(initialStatus('manual')).toBe('pending');
    expect(initialStatus('schedule')).toBe('pending');
  });
});
