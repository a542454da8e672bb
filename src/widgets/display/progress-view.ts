/** What the Progress widget draws, from a value and its record (pure; unit-tested). */

export interface ProgressOptions {
  /** record field holding the units done (with `totalKey`: the bar shows done / total) */
  doneKey?: unknown;
  /** record field holding the total units */
  totalKey?: unknown;
  /** record field holding a status that colours the bar */
  statusKey?: unknown;
  /** status values while the work runs (the bar moves) */
  activeValues?: unknown;
  /** status values of a failed run (red bar) */
  exceptionValues?: unknown;
  /** status values of a finished run (green bar, 100 % when the total is unknown) */
  successValues?: unknown;
}

export interface ProgressView {
  /** 0–100, whole numbers */
  percent: number;
  /** text beside the bar: "done / total", or "n %" */
  text: string;
  status: 'normal' | 'active' | 'exception' | 'success';
}

const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

const field = (record: Record<string, unknown> | undefined, key: unknown): unknown =>
  record && typeof key === 'string' ? key.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), record) : undefined;

const among = (v: unknown, list: unknown): boolean => Array.isArray(list) && v !== undefined && v !== null && list.some((x) => String(x) === String(v));

const clamp = (n: number) => Math.max(0, Math.min(100, Math.floor(n)));

/**
 * `value` is a percent (0–100) unless `doneKey` and `totalKey` name record fields, then the
 * percent is done / total. Returns null when there is nothing to draw (no number at all).
 */
export function progressView(value: unknown, record: Record<string, unknown> | undefined, o: ProgressOptions = {}): ProgressView | null {
  const status = field(record, o.statusKey);
  const kind: ProgressView['status'] = among(status, o.exceptionValues)
    ? 'exception'
    : among(status, o.successValues)
      ? 'success'
      : among(status, o.activeValues)
        ? 'active'
        : 'normal';
  if (typeof o.doneKey === 'string' && typeof o.totalKey === 'string') {
    const done = num(field(record, o.doneKey));
    const total = num(field(record, o.totalKey));
    if (done === null && total === null) return null;
    const d = Math.max(0, done ?? 0);
    const t = Math.max(0, total ?? 0);
    const percent = t > 0 ? clamp((d * 100) / t) : kind === 'success' ? 100 : 0;
    // a finished run short of its total (a campaign's slice that ended while calls go on in a
    // later one) is not drawn as the work being done: no green bar at 0 / 3
    const status = kind === 'success' && t > 0 && d < t ? 'normal' : kind;
    return { percent, text: t > 0 ? `${d} / ${t}` : `${d}`, status };
  }
  const n = num(value);
  if (n === null) return null;
  const percent = clamp(n);
  return { percent, text: `${percent}%`, status: kind };
}
