/**
 * `npm run schemas:check [-- --base <ref>]` (CI): meta-schema validation plus cross-references
 * (widgets, enums, i18n keys in both locales, server APIs, permission keys, schema ids,
 * routes in the manifest, ids and routes unique, each menu page's own key known or declared new, no inline copy
 * of an enum, each page's permission reaching its own calls, no two page or form schemas 90 % alike or more:
 * scripts/lib/check.ts `checkSchemaSet`, which the dev watch runs too) and "a changed file has its version raised"
 * (above the base's and above the previous commit's that changed the file: scripts/lib/versions.ts).
 * Prints one line per problem, `file#/json/pointer: reason`, and exits 1 on any.
 * Base: --base, else env SCHEMAS_BASE, else merge-base with origin/main, else HEAD.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatProblem } from '../server/schemas/problems.js';
import { runChecks } from './lib/check.js';
import { resolveBase } from './lib/git.js';
import { projectInputs } from './lib/project-inputs.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  if (i >= 0) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

async function main(): Promise<number> {
  const started = performance.now();
  const base = await resolveBase(root, argValue('--base') ?? process.env.SCHEMAS_BASE ?? null);
  const inputs = await projectInputs(root, base);
  // every check of the set (scripts/lib/check.ts checkSchemaSet, the dev watch runs the same), the versions and the generated files
  const { schemas, problems } = await runChecks(inputs);
  for (const p of problems) console.log(formatProblem(p));
  const ms = Math.round(performance.now() - started);
  const against = base ? `versions against ${base.slice(0, 12)} and each file's previous commit` : 'no git base: version check skipped';
  console.error(
    problems.length
      ? `schemas:check: ${problems.length} problem(s) in ${new Set(problems.map((p) => p.file)).size} file(s) (${ms} ms, ${against})`
      : `schemas:check: ${schemas.length} schemas OK (${ms} ms, ${against})`,
  );
  return problems.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`schemas:check failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
