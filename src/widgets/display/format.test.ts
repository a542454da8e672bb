import { describe, expect, it } from 'vitest';
import { formatDateTime, formatFileSize, formatMoney } from './format.js';

describe('display formatters', () => {
  it('formats file sizes in B / KB / MB with two decimals', () => {
    expect(formatFileSize(0)).toBe('0.00 B');
    expect(formatFileSize(1023)).toBe('1023.00 B');
    expect(formatFileSize(1024)).toBe('1.00 KB');
    expect(formatFileSize(1536)).toBe('1.50 KB');
    expect(formatFileSize(1024 * 1024)).toBe('1.00 MB');
    expect(formatFileSize(5.25 * 1024 * 1024)).toBe('5.25 MB');
    expect(formatFileSize('2048')).toBe('2.00 KB');
    expect(formatFileSize(-1)).toBe('-');
    expect(formatFileSize(undefined)).toBe('-');
  });

  it('formats dates and money', () => {
    expect(formatDateTime('2026-01-02T03:04:05')).toBe('2026-01-02 03:04:05');
    expect(formatDateTime(null)).toBe('-');
    expect(formatMoney(1234.5, undefined, 'en-US')).toBe('1,234.50');
    expect(formatMoney('x')).toBe('-');
  });
});
