/**
 * `npm run schemas:diff -- [<git-ref>] [--format text|md] [--fail-on risky|notable|cosmetic]`:
 * a semantic summary per schema changed since the ref (working tree vs `git show <ref>:<path>`),
 * for reviewers. Every change is classified risky / notable / cosmetic (scripts/lib/diff.ts);
 * the version rule (scripts/lib/versions.ts) is checked against the ref and against the previous
 * commit that changed each file. Without a ref: the same base as schemas:check (merge-base with
 * origin/main, else HEAD).
 *
 * `--format text` (default): one line per schema, risky changes marked `RISKY`, and a count.
 * `--format md`: a Markdown summary for a pull-request comment (risky, notable, cosmetic folded).
 * `--fail-on risky`: exit 1 when there is a risky change (`notable`: a risky or notable one;
 * `cosmetic`: any change). Without it the exit code is 0 whatever changed.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSchemaFiles, readSchemaFilesAt } from './lib/docs.js';
import { CLASSES, diffEntries, failingChanges, formatMarkdown, formatText, summaryLine, type ChangeClass, type SchemaDiff } from './lib/diff.js';
import { resolveBase } from './lib/git.js';
import { versionProblems } from './lib/versions.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Values of `--name value` / `--name=value`; the rest are positional. */
function parseArgs(argv: string[]): { options: Map<string, string>; positional: string[] } {
  const options = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) positional.push(a);
    else if (a.includes('=')) options.set(a.slice(2, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    else options.set(a.slice(2), argv[++i] ?? '');
  }
  return { options, positional };
}

/**
 * Adds what the previous-commit version rule found to the diffs: a schema whose content equals
 * the ref's (its change is in an earlier commit of the branch) gets an entry of its own.
 */
export function withVersionProblems(diffs: SchemaDiff[], problems: Awaited<ReturnType<typeof versionProblems>>, current: ReadonlyArray<{ file: string; doc: Record<string, unknown> }>): SchemaDiff[] {
  const out = diffs.map((d) => ({ ...d, changes: [...d.changes] }));
  for (const p of problems) {
    if (p.rule !== 'previous') continue; // the base rule is what diffEntries already reports
    const doc = current.find((c) => c.file === p.file)?.doc;
    const id = String(doc?.id ?? p.file);
    const change = { cls: 'risky' as const, pointer: '/version', text: `version not raised since ${p.against.slice(0, 12)}, the previous commit that changed it (was ${p.was}, now ${p.now}; set ${p.was + 1})` };
    const d = out.find((x) => x.id === id);
    if (d) d.changes.push(change);
    else out.push({ id, file: p.file, status: 'changed', versions: `v${p.now}`, changes: [change] });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

async function main(): Promise<number> {
  const { options, positional } = parseArgs(process.argv.slice(2));
  const format = options.get('format') ?? 'text';
  const failOn = options.get('fail-on');
  if (format !== 'text' && format !== 'md') {
    console.error(`schemas:diff: unknown --format "${format}" (text or md)`);
    return 2;
  }
  if (failOn !== undefined && !CLASSES.includes(failOn as ChangeClass)) {
    console.error(`schemas:diff: unknown --fail-on "${failOn}" (risky, notable or cosmetic)`);
    return 2;
  }
  const refArg = positional[0] ?? options.get('base');
  const ref = await resolveBase(root, refArg ?? process.env.SCHEMAS_BASE ?? null);
  if (!ref) {
    console.error('schemas:diff: no git ref to compare with (no commit yet); pass one: npm run schemas:diff -- <ref>');
    return 2;
  }
  const current = await readSchemaFiles(root);
  const diffs = withVersionProblems(diffEntries(await readSchemaFilesAt(root, ref), current), await versionProblems(root, ref, current), current);
  const label = refArg ?? ref.slice(0, 12);
  if (format === 'md') process.stdout.write(formatMarkdown(diffs, label));
  else if (!diffs.length) console.log(`no schema changes since ${label}`);
  else {
    for (const l of formatText(diffs)) console.log(l);
    console.log(summaryLine(diffs));
  }
  if (!failOn) return 0;
  const hit = failingChanges(diffs, failOn as ChangeClass);
  if (hit) console.error(`schemas:diff: failing on ${failOn}: ${hit} such change(s)`);
  return hit ? 1 : 0;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`schemas:diff failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(2);
    },
  );
}
