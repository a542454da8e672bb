import { describe, expect, it } from 'vitest';
import { isCalendarDate } from './calendar.js';

describe('isCalendarDate', () => {
  it('takes what a date picker sends', () => {
    for (const s of ['2026-01-31', '2026-01-31 08:00:00', '2026-01-31T08:00:00.123Z', '2024-02-29', '2026-03-01T00:00+08:00']) {
      expect(isCalendarDate(s), s).toBe(true);
    }
  });
  it('refuses impossible dates and times', () => {
    for (const s of ['2026-02-30', '2025-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '2026-01-01 24:00:00', '2026-01-01 10:60', '0000-01-01', 'yesterday']) {
      expect(isCalendarDate(s), s).toBe(false);
    }
  });
});
