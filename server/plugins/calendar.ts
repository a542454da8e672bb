/**
 * `format: "calendar-date"`: a date or date-time as a date picker sends it (`2026-01-31`,
 * `2026-01-31 08:00:00`, ISO 8601 with an offset) that is also a real moment: `2026-02-30`,
 * `2026-13-01` or `24:00:00` are refused with 40001 instead of reaching the database.
 */
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/;

export function isCalendarDate(s: string): boolean {
  const m = SHAPE.exec(s);
  if (!m) return false;
  const [y, mo, d, h = '0', mi = '0', sec = '0', oh = '0', om = '0'] = m.slice(1);
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) return false;
  return Number(h) < 24 && Number(mi) < 60 && Number(sec) < 60 && Number(oh) <= 14 && Number(om) < 60;
}
