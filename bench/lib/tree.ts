/**
 * Which code a full run measured: the commit, and the paths changed but not committed. A full
 * run rewrites docs/performance.md's latest-run table and the CI gate's references
 * (docs/performance-gate.json); from a tree with uncommitted changes those figures would belong
 * to no commit (session 25 took one such run by mistake), so bench/run.ts then leaves both files
 * alone and says why. The files the bench itself writes do not count as changes.
 */
import { spawnSync } from 'node:child_process';

const WRITTEN_BY_BENCH = [/^docs\/performance\.md$/, /^docs\/performance-gate\.json$/, /^bench\/results\//, /^bench\/console\/dist\//];

export interface TreeState {
  /** HEAD's commit, or null outside a git checkout */
  commit: string | null;
  /** changed, added or untracked paths (porcelain), the bench's own outputs left out */
  changed: string[];
}

export function treeState(root: string): TreeState {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  const head = git('rev-parse', 'HEAD');
  if (head.status !== 0) return { commit: null, changed: [] };
  const status = git('status', '--porcelain', '--untracked-files=normal');
  const changed = status.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(3).replace(/^.* -> /, ''))
    .filter((p) => !WRITTEN_BY_BENCH.some((re) => re.test(p)));
  return { commit: head.stdout.trim(), changed };
}
