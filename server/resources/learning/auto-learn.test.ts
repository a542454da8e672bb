import { describe, expect, it } from 'vitest';
import { cleanMessage, contentTokens, covered, fingerprintOf, judgePair } from './auto-learn-judge.js';
import { nextRunAfter, scheduleProblem, type Schedule } from './auto-learn-schedule.js';
import { sourcesOf } from './auto-learn.js';

const base: Schedule = { schedule_type: 'interval', interval_hours: 24, run_time: '03:00', time_zone: 'Asia/Shanghai', cron: '' };

describe('auto-learn schedules', () => {
  it('computes the next due time per schedule type, in the time zone', () => {
    const from = new Date('2026-05-01T00:00:00Z');
    expect(nextRunAfter({ ...base, interval_hours: 6 }, from)!.toISOString()).toBe('2026-05-01T06:00:00.000Z');
    expect(nextRunAfter({ ...base, schedule_type: 'daily', run_time: '09:00' }, from)!.toISOString()).toBe('2026-05-01T01:00:00.000Z');
    // New York in May is UTC−4
    expect(nextRunAfter({ ...base, schedule_type: 'daily', run_time: '09:00', time_zone: 'America/New_York' }, from)!.toISOString()).toBe('2026-05-01T13:00:00.000Z');
    expect(nextRunAfter({ ...base, schedule_type: 'cron', cron: '0 3 * * 1', time_zone: 'UTC' }, from)!.toISOString()).toBe('2026-05-04T03:00:00.000Z');
  });

  it('names what is wrong with a schedule', () => {
    expect(scheduleProblem(base)).toBeNull();
    expect(scheduleProblem({ ...base, schedule_type: 'daily', run_time: '25:00' })?.field).toBe('run_time');
    expect(scheduleProblem({ ...base, schedule_type: 'daily', time_zone: 'Nowhere/City' })?.field).toBe('time_zone');
    expect(scheduleProblem({ ...base, schedule_type: 'cron', cron: '' })?.field).toBe('cron');
    expect(scheduleProblem({ ...base, schedule_type: 'cron', cron: 'not cron' })?.field).toBe('cron');
    expect(scheduleProblem({ ...base, schedule_type: 'cron', cron: '*/1 * * * *' })?.field).toBe('cron');
  });
});

describe('auto-learn mining rules', () => {
  it('cleans greetings, sign-offs and quoted mail', () => {
    expect(cleanMessage('Hello, Do you ship to Canada? Thanks, Carol')).toBe('Do you ship to Canada?');
    expect(cleanMessage('Dear Carol,\n\nYes, in 5 days.\n\nBest regards')).toBe('Yes, in 5 days.');
    expect(cleanMessage('Yes we do.\n> On Monday you wrote:\n> old text')).toBe('Yes we do.');
  });

  it('keeps real questions with substantive answers; skips hand-offs, small talk and thin answers', () => {
    const answer = 'Shipping to Canada takes 5 to 8 business days with Canada Post and tracking is emailed.';
    expect(judgePair('How long does shipping to Canada take?', answer, 0.8)).toMatchObject({ keep: true, confidence: 0.9 });
    expect(judgePair('请问退货政策是什么？', '我们支持7天无理由退货，商品需保持完好，运费由买家承担。', 0.8).keep).toBe(true);
    expect(judgePair('Can I talk to a person?', 'Hi, this is Lisa. I can help you with that.', 0).reason).toBe('not_a_question');
    expect(judgePair('thanks!', 'You are welcome, have a great day and thank you for shopping with us.', 0).reason).toBe('not_a_question');
    expect(judgePair('Where is my order?', 'Hi Anna!', 0.8)).toMatchObject({ keep: false, reason: 'low_confidence' });
  });

  it('finds a question already covered by a policy title or an answer a policy already says', () => {
    const k = [{ title: contentTokens('Return policy'), content: contentTokens('Returns are accepted within 30 days of delivery for a full refund.') }];
    expect(covered(k, 'What is your return policy?', 'x')).toBe(true);
    expect(covered(k, 'Can I return a used item?', 'Only unused items can be returned.')).toBe(false);
    expect(covered(k, 'How long do I have?', 'Returns are accepted within 30 days of delivery for a full refund.')).toBe(true);
  });

  it('fingerprints questions by their words, and picks the sources by source type', () => {
    expect(fingerprintOf('Do you ship to Canada?')).toBe(fingerprintOf('do you  ship to canada'));
    expect(sourcesOf(5)).toEqual(['mail']);
    expect(sourcesOf(6)).toEqual(['chat']);
    expect(sourcesOf(1)).toEqual(['chat', 'mail']);
  });
});
