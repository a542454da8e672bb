/**
 * `npm run schemas:similarity [-- --baseline <ref>] [--top <n>] [--files]`: how much the page
 * and form schemas repeat each other, and how many lines they lost since the baseline commit.
 * Prints the line figures (total, saved share; per file with --files), the figures against issue
 * 22's goals (lines and values of the page, form and fragment files, largest list page) and the most alike pairs;
 * exits 1 when a pair is at or above 90 % alike (scripts/lib/similarity.ts defines the measure).
 * schemas:check runs the same pair check.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASELINE_COMMIT, GOALS, SIMILARITY_LIMIT, lineCount, lineFigures, pairs, percent, readPageTexts } from './lib/similarity.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function main(argv: string[] = process.argv.slice(2), dir = root, log = console.log): Promise<number> {
  const get = (n: string) => (argv.includes(n) ? argv[argv.indexOf(n) + 1] : undefined);
  const baseline = get('--baseline') ?? BASELINE_COMMIT;
  const top = Number(get('--top') ?? 5);
  const current = await readPageTexts(dir);
  const figures = await lineFigures(dir, current, baseline);
  if (argv.includes('--files')) {
    for (const f of figures.files) log(`${String(f.before).padStart(5)} → ${String(f.now).padStart(5)}  ${f.file}`);
  }
  const typicalList = current.filter((f) => f.file.endsWith('.list.json')).map((f) => f.text.split('\n').length - 1).sort((a, b) => a - b);
  const median = typicalList.length ? typicalList[Math.floor(typicalList.length / 2)] : 0;
  // every list page, whatever its file name
  const lists = current
    .filter((f) => /"kind":\s*"list"|"\$schema":\s*"[^"]*\/list\.schema\.json"/.test(f.text))
    .map((f) => ({ file: f.file, lines: lineCount(f.text) }))
    .sort((a, b) => b.lines - a.lines);
  log(
    `lines: ${figures.before} → ${figures.now} + ${figures.fragments} in fragments = ${figures.now + figures.fragments} ` +
      `for the ${figures.files.length} page/form files present at ${baseline} (${percent(figures.saved)} saved, fragments counted); ` +
      `${figures.totalNow} lines in all ${current.length} page/form files now; median list page ${median} lines`,
  );
  log(
    `leaf lines (one per scalar value, formatting aside): ${figures.leavesBefore} → ${figures.leavesNow} with the fragments ` +
      `(${percent(figures.leavesBefore ? 1 - figures.leavesNow / figures.leavesBefore : 0)} saved)`,
  );
  const mark = (now: number, goal: number) => `${now} ${now <= goal ? '≤' : '>'} ${goal}${now <= goal ? '' : ` (${now - goal} over)`}`;
  const lines = figures.now + figures.fragments;
  log(
    `goals (issue 22): lines ${mark(lines, GOALS.lines)}; values ${mark(figures.leavesNow, GOALS.values)}; ` +
      `largest list page ${mark(lists[0]?.lines ?? 0, GOALS.largestList)} lines${lists[0] ? ` (${lists[0].file})` : ''}`,
  );
  const all = pairs(current);
  const worst = all.slice(0, top);
  log(`most alike page/form schemas (Dice over canonical leaf lines, as written):`);
  for (const p of worst) log(`  ${percent(p.similarity)}  ${p.a}  ~  ${p.b}`);
  const over = all.filter((p) => p.similarity >= SIMILARITY_LIMIT);
  if (over.length) {
    log(`schemas:similarity: ${over.length} pair(s) at or above ${percent(SIMILARITY_LIMIT)}: share their common part through a fragment`);
    return 1;
  }
  return 0;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`schemas:similarity failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(2);
    },
  );
}
