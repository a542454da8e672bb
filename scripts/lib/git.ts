/** The few read-only git calls the schema tools make (never anything that changes state). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function git(cwd: string, args: string[]): Promise<string | null> {
  try {
    const { stdout } = await run('git', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch {
    return null;
  }
}

const verify = async (cwd: string, ref: string) => (await git(cwd, ['rev-parse', '--verify', '-q', `${ref}^{commit}`]))?.trim() || null;

/**
 * The base to compare with: an explicit ref (`--base` or SCHEMAS_BASE), else the merge-base
 * with origin/main when that exists, else HEAD; null when the repository has no commit yet.
 */
export async function resolveBase(cwd: string, explicit?: string | null): Promise<string | null> {
  if (explicit) {
    const sha = await verify(cwd, explicit);
    if (!sha) throw new Error(`unknown git ref "${explicit}"`);
    return sha;
  }
  if (await verify(cwd, 'origin/main')) {
    const mb = (await git(cwd, ['merge-base', 'origin/main', 'HEAD']))?.trim();
    if (mb) return mb;
  }
  return verify(cwd, 'HEAD');
}

/** A file's text at a ref (`path` relative to `cwd`), or null when it does not exist there. */
export const showAt = (cwd: string, ref: string, path: string): Promise<string | null> =>
  git(cwd, ['show', `${ref}:./${path}`]);

/** Files under `paths` that differ between `ref` and the working tree (tracked files; relative to cwd). */
export async function changedSince(cwd: string, ref: string, paths: string[]): Promise<string[]> {
  const out = await git(cwd, ['diff', '--name-only', '--relative', ref, '--', ...paths]);
  return (out ?? '').split('\n').filter(Boolean);
}

/** Files under `paths` that exist at `ref` (relative to cwd). */
export async function filesAt(cwd: string, ref: string, paths: string[]): Promise<string[]> {
  const out = await git(cwd, ['ls-tree', '-r', '--name-only', ref, '--', ...paths]);
  return (out ?? '').split('\n').filter(Boolean);
}

/** The last commit at or before `ref` that changed `file`, or null (none, or `ref` has no parent). */
export async function lastCommitTouching(cwd: string, ref: string, file: string): Promise<string | null> {
  return (await git(cwd, ['log', '-1', '--format=%H', ref, '--', file]))?.trim() || null;
}

/**
 * Files under `paths` changed by the commits after `base` up to HEAD (relative to cwd); when
 * `base` is HEAD itself, the files HEAD's own commit changed.
 */
export async function committedSince(cwd: string, base: string, paths: string[]): Promise<string[]> {
  const head = await verify(cwd, 'HEAD');
  if (!head) return [];
  const out =
    head === base
      ? await git(cwd, ['diff-tree', '--no-commit-id', '--name-only', '--relative', '-r', '--root', head, '--', ...paths])
      : await git(cwd, ['log', '--format=', '--name-only', '--relative', `${base}..${head}`, '--', ...paths]);
  return [...new Set((out ?? '').split('\n').filter(Boolean))];
}

export const headCommit = (cwd: string): Promise<string | null> => verify(cwd, 'HEAD');
