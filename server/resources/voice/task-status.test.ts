import { describe, expect, it } from 'vitest';
import { applyAction, inWindow, isTimeZone, nextResume, tick, transition, zonedTime, type TaskState } from './task-status.js';

const SH = 'Asia/Shanghai';
const NY = 'America/New_York';
const base: TaskState = { status: 'running', mode: 'manual', start_at: null, latest_call_time: '20:00', pause_reason: null, resume_at: null };

describe('transition', () => {
  it('allows start, pause and stop only from their statuses', () => {
    expect(transition('pending', 'start')).toBe('running');
    expect(transition('pausing', 'start')).toBe('running');
    expect(transition('running', 'pause')).toBe('pausing');
    expect(transition('running', 'stop')).toBe('stopped');
    expect(transition('pending', 'stop')).toBe('stopped');
    expect(transition('pausing', 'stop')).toBe('stopped');
    for (const s of ['finished', 'stopped'] as const) {
      expect(transition(s, 'start')).toBeNull();
      expect(transition(s, 'pause')).toBeNull();
      expect(transition(s, 'stop')).toBeNull();
    }
    expect(transition('running', 'start')).toBeNull();
    expect(transition('pending', 'pause')).toBeNull();
    expect(transition('pausing', 'pause')).toBeNull();
  });
  it('marks a hand pause as manual and clears it on start', () => {
    expect(applyAction({ status: 'running' }, 'pause')).toEqual({ status: 'pausing', pause_reason: 'manual', resume_at: null });
    expect(applyAction({ status: 'pausing' }, 'start')).toEqual({ status: 'running', pause_reason: null, resume_at: null });
    expect(applyAction({ status: 'finished' }, 'start')).toBeNull();
  });
});

describe('zoned time', () => {
  it('converts local wall-clock times to instants', () => {
    expect(zonedTime(2026, 11, 22, 9, 0, SH).toISOString()).toBe('2026-11-22T01:00:00.000Z');
    expect(zonedTime(2026, 7, 1, 9, 0, NY).toISOString()).toBe('2026-07-01T13:00:00.000Z'); // EDT
    expect(zonedTime(2026, 12, 1, 9, 0, NY).toISOString()).toBe('2026-12-01T14:00:00.000Z'); // EST
    expect(isTimeZone(SH)).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('tick: the latest-call-time rule', () => {
  it('leaves a running task alone before its latest call time', () => {
    expect(tick(base, new Date('2026-11-22T11:59:00Z'), SH)).toBeNull(); // 19:59 in Shanghai
  });
  it('pauses a running task at its latest call time and resumes it the next day at 09:00', () => {
    const c = tick(base, new Date('2026-11-22T12:00:00Z'), SH); // 20:00 in Shanghai
    expect(c).toEqual({ status: 'pausing', pause_reason: 'overrun', resume_at: '2026-11-23T01:00:00.000Z' });
    const paused = { ...base, ...c! } as TaskState;
    expect(tick(paused, new Date('2026-11-23T00:59:00Z'), SH)).toBeNull();
    expect(tick(paused, new Date('2026-11-23T01:00:00Z'), SH)).toEqual({ status: 'running', pause_reason: null, resume_at: null });
  });
  it('resumes at the window start, in the scene time zone', () => {
    const t = { ...base, start_at: '2026-11-20T15:00:00Z', window_start: '10:30' };
    expect(nextResume(t, new Date('2026-11-23T02:00:00Z'), NY).toISOString()).toBe('2026-11-23T15:30:00.000Z'); // 10:30 EST
    const c = tick({ ...t, latest_call_time: '18:00' }, new Date('2026-11-22T23:10:00Z'), NY); // 18:10 NY
    expect(c?.resume_at).toBe('2026-11-23T15:30:00.000Z');
    expect(nextResume({ window_start: '10:30' }, new Date('2026-07-01T03:00:00Z'), NY).toISOString()).toBe('2026-07-01T14:30:00.000Z'); // 23:00 EDT → 10:30 EDT
  });
  it('knows the call window', () => {
    const t = { window_start: '09:00', latest_call_time: '20:00' };
    expect(inWindow(t, new Date('2026-11-22T00:59:00Z'), SH)).toBe(false); // 08:59
    expect(inWindow(t, new Date('2026-11-22T01:00:00Z'), SH)).toBe(true); // 09:00
    expect(inWindow(t, new Date('2026-11-22T11:59:00Z'), SH)).toBe(true); // 19:59
    expect(inWindow(t, new Date('2026-11-22T12:00:00Z'), SH)).toBe(false); // 20:00
    expect(inWindow(t, new Date('2026-11-22T14:00:00Z'), NY)).toBe(true); // 09:00 EST
  });
  it('crosses the month and year end', () => {
    const c = tick(base, new Date('2026-12-31T13:00:00Z'), SH); // 21:00 on Dec 31
    expect(c?.resume_at).toBe('2027-01-01T01:00:00.000Z');
  });
  it('never resumes a task paused by hand', () => {
    const t: TaskState = { ...base, status: 'pausing', pause_reason: 'manual', resume_at: null };
    expect(tick(t, new Date('2026-11-30T02:00:00Z'), SH)).toBeNull();
  });
  it('pauses again when the resume is late and already past the latest call time', () => {
    const t: TaskState = { ...base, status: 'pausing', pause_reason: 'overrun', resume_at: '2026-11-23T01:00:00Z' };
    expect(tick(t, new Date('2026-11-23T13:00:00Z'), SH)).toEqual({ status: 'pausing', pause_reason: 'overrun', resume_at: '2026-11-24T01:00:00.000Z' });
  });
  it('starts a scheduled task when its start time has passed (and pauses it if that is too late)', () => {
    const t: TaskState = { ...base, status: 'pending', mode: 'schedule', start_at: '2026-11-22T02:00:00Z' }; // 10:00 SH
    expect(tick(t, new Date('2026-11-22T01:00:00Z'), SH)).toBeNull();
    expect(tick(t, new Date('2026-11-22T03:00:00Z'), SH)).toEqual({ status: 'running', pause_reason: null, resume_at: null });
    expect(tick(t, new Date('2026-11-22T13:00:00Z'), SH)).toEqual({ status: 'pausing', pause_reason: 'overrun', resume_at: '2026-11-23T01:00:00.000Z' });
    expect(tick({ ...t, mode: 'manual' }, new Date('2026-11-22T03:00:00Z'), SH)).toBeNull();
  });
  it('does nothing to finished or stopped tasks', () => {
    expect(tick({ ...base, status: 'finished' }, new Date('2026-11-22T13:00:00Z'), SH)).toBeNull();
    expect(tick({ ...base, status: 'stopped' }, new Date('2026-11-22T13:00:00Z'), SH)).toBeNull();
  });
});
