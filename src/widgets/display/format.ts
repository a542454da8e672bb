/** Pure formatters behind the display widgets (unit-tested). */
import dayjs from 'dayjs';

/** B / KB / MB with two decimals (spec section 5). */
export function formatFileSize(bytes: unknown): string {
  const n = typeof bytes === 'string' ? Number(bytes) : bytes;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return '-';
  if (n < 1024) return `${n.toFixed(2)} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(2)} KB`;
  return `${(n / 1024 / 1024).toFixed(2)} MB`;
}

/** Dates as `YYYY-MM-DD HH:mm:ss`; numbers below 1e12 are seconds. */
export function formatDateTime(value: unknown, format = 'YYYY-MM-DD HH:mm:ss'): string {
  if (value === null || value === undefined || value === '') return '-';
  const d = typeof value === 'number' ? dayjs(value < 1e12 ? value * 1000 : value) : dayjs(value as string);
  return d.isValid() ? d.format(format) : String(value);
}

export function formatMoney(value: unknown, currency?: string, locale = 'zh-CN'): string {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return '-';
  return new Intl.NumberFormat(locale, {
    style: currency ? 'currency' : 'decimal',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(n);
}

export const isBlank = (v: unknown) => v === null || v === undefined || v === '';
