/**
 * `npm run schemas:diff -- <git-ref>`: a semantic summary per schema changed since the ref
 * (working tree vs `git show <ref>:<path>`), for reviewers. Without a ref: the same base as
 * schemas:check (merge-base with origin/main, else HEAD).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSchemaDocs, readSchemaDocsAt } from './lib/docs.js';
import { diffTrees } from './lib/diff.js';
import { resolveBase } from './lib/git.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<number> {
  const refArg = process.argv.slice(2).find((a) => !a.startsWith('-'));
  const ref = await resolveBase(root, refArg ?? process.env.SCHEMAS_BASE ?? null);
  if (!ref) {
    console.error('schemas:diff: no git ref to compare with (no commit yet); pass one: npm run schemas:diff -- <ref>');
    return 2;
  }
  const lines = diffTrees(await readSchemaDocsAt(root, ref), await readSchemaDocs(root));
  const label = refArg ?? ref.slice(0, 12);
  if (!lines.length) console.log(`no schema changes since ${label}`);
  for (const l of lines) console.log(l);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`schemas:diff failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
