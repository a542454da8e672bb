/**
 * `npm run schemas:check [-- --base <ref>]` (CI): meta-schema validation plus cross-references
 * (widgets, enums, i18n keys in both locales, server APIs, permission keys, schema ids,
 * routes in the manifest, ids and routes unique, each page's permission reaching its own calls, no two page or form
 * schemas 90 % alike or more: scripts/lib/similarity.ts) and "a changed file has its version raised"
 * (above the base's and above the previous commit's that changed the file: scripts/lib/versions.ts).
 * Prints one line per problem, `file#/json/pointer: reason`, and exits 1 on any.
 * Base: --base, else env SCHEMAS_BASE, else merge-base with origin/main, else HEAD.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPermissionReach } from '../server/schemas/grants.js';
import { formatProblem, sortProblems } from '../server/schemas/problems.js';
import { runChecks } from './lib/check.js';
import { resolveBase } from './lib/git.js';
import { projectInputs } from './lib/project-inputs.js';
import { pairs, readPageTexts, similarityProblems } from './lib/similarity.js';

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
  const checked = await runChecks(inputs);
  const { schemas } = checked;
  // each page's permission reaches its own calls: by the route's keys or the schemas' grants (server/schemas/grants.ts)
  const { allRoutes } = await import('../server/routes/index.js');
  // no two page or form schemas 90 % alike or more, as written (scripts/lib/similarity.ts; npm run schemas:similarity for the figures)
  const alike = similarityProblems(pairs(await readPageTexts(root)));
  const problems = sortProblems([...checked.problems, ...checkPermissionReach(schemas, await allRoutes()), ...alike]);
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
