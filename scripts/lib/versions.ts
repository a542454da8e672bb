/**
 * The version rule: a schema whose content changed must carry a higher `version`, compared
 * with two states —
 *  1. the git base (the branch's merge-base, or an explicit ref), and
 *  2. the previous commit that changed the file: with uncommitted changes, the last commit that
 *     touched it (`git log -1 HEAD -- <file>`); when the file is as committed, the commit that
 *     touched it before that one (`git log -1 <last>^ -- <file>`).
 * So a second commit that changes a schema again without a bump fails, although the version is
 * above the base's. Checked: files that differ from the base, files changed by commits after the
 * base, and (when the base is HEAD) the files HEAD's own commit changed. New files pass; a change
 * of formatting only (same canonical JSON) needs no bump. Used by schemas:check and schemas:diff.
 */
import { canonicalJson } from '../../server/schemas/canonical.js';
import { FRAGMENTS_DIR } from '../../server/schemas/expand.js';
import { fragmentReaderAt, parse } from './docs.js';
import { changedSince, committedSince, headCommit, lastCommitTouching, showAt } from './git.js';

export const VERSIONED_DIRS = ['schemas/pages', 'schemas/forms', 'schemas/enums'];

export interface VersionProblem {
  file: string;
  /** the commit compared with */
  against: string;
  /** `base`: the git base; `previous`: the previous commit that changed the file */
  rule: 'base' | 'previous';
  was: number;
  now: number;
  reason: string;
}

/** Current schemas: the file (relative to root) and its parsed document. */
export interface VersionedSchema {
  file: string;
  doc: unknown;
  /** fragment files it uses (relative to root): a schema whose fragment changed is checked too */
  fragments?: string[];
}

const versionOf = (d: unknown) => {
  const v = d && typeof d === 'object' ? (d as { version?: unknown }).version : undefined;
  return typeof v === 'number' ? v : 0;
};

async function docAt(root: string, ref: string, file: string): Promise<unknown> {
  const text = await showAt(root, ref, file);
  if (text === null) return undefined;
  // expanded with the ref's own fragments: the rule compares what was served with what will be
  return parse(text, `${ref.slice(0, 12)}:${file}`, root, file, await fragmentReaderAt(root, ref)) ?? undefined;
}

/** Compares `doc` with the file at `ref`: a problem when the content changed and the version did not rise. */
async function compare(root: string, ref: string, s: VersionedSchema): Promise<{ was: number; now: number } | null> {
  const old = await docAt(root, ref, s.file);
  if (old === undefined || canonicalJson(old) === canonicalJson(s.doc)) return null;
  const was = versionOf(old);
  const now = versionOf(s.doc);
  return now <= was ? { was, now } : null;
}

export async function versionProblems(root: string, base: string, schemas: readonly VersionedSchema[]): Promise<VersionProblem[]> {
  const FRAGMENTS = [`schemas/${FRAGMENTS_DIR}`];
  const [sinceBase, committed, dirty, head, fragSince, fragCommitted] = await Promise.all([
    changedSince(root, base, VERSIONED_DIRS),
    committedSince(root, base, VERSIONED_DIRS),
    changedSince(root, 'HEAD', VERSIONED_DIRS),
    headCommit(root),
    changedSince(root, base, FRAGMENTS),
    committedSince(root, base, FRAGMENTS),
  ]);
  // a changed fragment makes every schema that uses it a candidate (compared expanded)
  const changedFragments = new Set([...fragSince, ...fragCommitted]);
  const candidates = new Set([...sinceBase, ...committed]);
  for (const s of schemas) if (s.fragments?.some((f) => changedFragments.has(f))) candidates.add(s.file);
  const uncommitted = new Set(dirty);
  const problems: VersionProblem[] = [];
  await Promise.all(
    schemas
      .filter((s) => candidates.has(s.file))
      .map(async (s) => {
        const b = await compare(root, base, s);
        if (b) {
          problems.push({
            file: s.file, against: base, rule: 'base', ...b,
            reason: `changed since ${base.slice(0, 12)} but version not raised (was ${b.was}, now ${b.now}; set ${b.was + 1})`,
          });
          return;
        }
        if (!head) return;
        const last = await lastCommitTouching(root, 'HEAD', s.file);
        if (!last) return;
        const previous = uncommitted.has(s.file) ? last : await lastCommitTouching(root, `${last}^`, s.file);
        if (!previous || previous === base) return;
        const p = await compare(root, previous, s);
        if (p) {
          problems.push({
            file: s.file, against: previous, rule: 'previous', ...p,
            reason: `changed since ${previous.slice(0, 12)} (the previous commit that changed this file) but version not raised (was ${p.was}, now ${p.now}; set ${p.was + 1})`,
          });
        }
      }),
  );
  return problems.sort((x, y) => x.file.localeCompare(y.file));
}
