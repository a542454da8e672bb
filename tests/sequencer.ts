/**
 * Vitest's file order for the unit and API runs: the slowest recorded files first
 * (tests/durations.json, scripts/lib/durations.mjs), so the workers finish together. Vitest's own
 * order needs its cache of the last run, which a fresh clone (CI) does not have.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { readDurations } from '../scripts/lib/durations.mjs';

export function sequencerFor(runner: string) {
  return class DurationSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const known = readDurations()[runner] ?? {};
      const d = (s: TestSpecification) => known[path.relative(this.ctx.config.root, s.moduleId).split(path.sep).join('/')] ?? Infinity;
      return [...files].sort((a, b) => d(b) - d(a) || a.moduleId.localeCompare(b.moduleId));
    }
  };
}
