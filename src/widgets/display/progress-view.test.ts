import { describe, expect, it } from 'vitest';
import { progressView } from './progress-view';

describe('progressView', () => {
  it('takes a percent value, clamped and whole', () => {
    expect(progressView(42.7, {})).toEqual({ percent: 42, text: '42%', status: 'normal' });
    expect(progressView('130', {})).toEqual({ percent: 100, text: '100%', status: 'normal' });
    expect(progressView(-5, {})).toMatchObject({ percent: 0 });
    expect(progressView(null, {})).toBeNull();
    expect(progressView('abc', {})).toBeNull();
  });

  it('computes done / total from record fields', () => {
    const o = { doneKey: 'done', totalKey: 'total' };
    expect(progressView(undefined, { done: 3, total: 12 }, o)).toEqual({ percent: 25, text: '3 / 12', status: 'normal' });
    expect(progressView(undefined, { done: '5', total: '5' }, o)).toMatchObject({ percent: 100, text: '5 / 5' });
    expect(progressView(undefined, { done: 0, total: 0 }, o)).toEqual({ percent: 0, text: '0', status: 'normal' });
    expect(progressView(undefined, { other: 1 }, o)).toBeNull();
    expect(progressView(undefined, { p: { done: 1, total: 4 } }, { doneKey: 'p.done', totalKey: 'p.total' })).toMatchObject({ percent: 25 });
  });

  it('colours by the record status', () => {
    const o = { statusKey: 'state', activeValues: ['running'], exceptionValues: ['failed'], successValues: ['done'] };
    expect(progressView(10, { state: 'running' }, o)?.status).toBe('active');
    expect(progressView(10, { state: 'failed' }, o)?.status).toBe('exception');
    expect(progressView(10, { state: 'queued' }, o)?.status).toBe('normal');
    // numeric statuses match their string form
    expect(progressView(10, { status: 0 }, { statusKey: 'status', activeValues: ['0'] })?.status).toBe('active');
    // done with an unknown total is full
    expect(progressView(undefined, { state: 'done', d: 0, t: 0 }, { ...o, doneKey: 'd', totalKey: 't' })?.percent).toBe(100);
    // a finished run short of its total is not green (a campaign slice ended at 0 / 3)
    expect(progressView(undefined, { state: 'done', d: 0, t: 3 }, { ...o, doneKey: 'd', totalKey: 't' })).toEqual({ percent: 0, text: '0 / 3', status: 'normal' });
    expect(progressView(undefined, { state: 'done', d: 3, t: 3 }, { ...o, doneKey: 'd', totalKey: 't' })?.status).toBe('success');
  });
});
