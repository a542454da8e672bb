/**
 * The shapes every bench suite produces. A figure is one measured number with its unit; when
 * it has a baseline measured in the same run, `ratio` is ours ÷ baseline (or the inverse for
 * throughput figures: see `ratioOf`), and `goal` says what passes.
 */
export type Unit = 'ms' | 'req/s' | 'jobs/s' | 'KiB' | 'x';

export interface Goal {
  /** `<=`: the value must be at most `value`; `>=`: at least */
  op: '<=' | '>=';
  value: number;
  /** which number the goal applies to */
  on: 'value' | 'ratio';
  /** when the goal only holds under some condition (e.g. "on PostgreSQL") */
  when?: string;
  /** false when that condition does not hold in this run: the goal is shown but not judged */
  applies?: boolean;
}

export interface Figure {
  /** stable id, e.g. `api.shop-list.page1.rps` — `--only` matches on its prefix */
  id: string;
  label: string;
  unit: Unit;
  value: number | null;
  /** the baseline measured in the same run, same unit */
  baseline?: number | null;
  baselineLabel?: string;
  /** ours ÷ baseline */
  ratio?: number | null;
  goal?: Goal;
  /** true / false when a goal applies, undefined otherwise */
  ok?: boolean;
  /** why a figure is missing, or what to know when reading it */
  note?: string;
  /** left out on purpose (a product part not in the tree yet, the peer not installed); a
   * figure without a value and without this flag is a failure and fails the run */
  skip?: boolean;
  /** raw samples and any other detail, kept in the JSON only */
  detail?: Record<string, unknown>;
}

export interface SuiteContext {
  smoke: boolean;
  /** figure-id prefixes to run; empty means all */
  only: string[];
  /** skip the amis peer (it needs a one-time install) */
  skipPeer: boolean;
  /** how many page loads per browser figure (median taken) */
  runs: number;
  /** `--profile`: profile the console pages instead of timing them */
  profile: boolean;
  root: string;
  log(msg: string): void;
  /** true when some figure with this id prefix is wanted */
  wants(idPrefix: string): boolean;
  /** facts about the environment a suite learned (driver, versions), merged into the report */
  facts: Record<string, unknown>;
}

export interface Suite {
  id: string;
  title: string;
  run(ctx: SuiteContext): Promise<Figure[]>;
}

export function checkGoal(f: Figure): Figure {
  if (!f.goal || f.goal.applies === false) return f;
  const n = f.goal.on === 'ratio' ? f.ratio : f.value;
  if (n === null || n === undefined || Number.isNaN(n)) return { ...f, ok: undefined };
  const ok = f.goal.op === '<=' ? n <= f.goal.value : n >= f.goal.value;
  return { ...f, ok };
}

/** A figure that could not be measured (a product part that has not landed, a peer not installed). */
export function skipped(id: string, label: string, unit: Unit, note: string, goal?: Goal): Figure {
  return { id, label, unit, value: null, note, goal, skip: true };
}

/** A figure that should have been measured and was not (a failing request, a page that errors). */
export function failed(id: string, label: string, unit: Unit, note: string, goal?: Goal): Figure {
  return { id, label, unit, value: null, note, goal };
}

/** ours ÷ baseline, rounded; null when either is missing or the baseline is zero. */
export function ratioOf(ours: number | null | undefined, baseline: number | null | undefined): number | null {
  if (ours === null || ours === undefined || baseline === null || baseline === undefined || baseline === 0) return null;
  return Math.round((ours / baseline) * 1000) / 1000;
}
