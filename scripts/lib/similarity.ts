/**
 * How much the page and form schemas repeat each other (issue 11, "reuse instead of copies").
 *
 * Similarity of two schema files, as written (fragments NOT expanded: what people maintain):
 * each file is flattened into its canonical leaf lines, `path = value` for every scalar, where
 * the path is made of object keys and, for array elements, the element's `key` (or `id`, `name`,
 * `value`) when it has one, else its index — so a column inserted above does not shift every
 * line below. `$schema` is left out (it only names the meta file). The similarity is the Dice
 * coefficient of the two multisets of lines, 2·|A ∩ B| / (|A| + |B|): 1 for the same content,
 * 0 for nothing in common. Two pages that differ only in ids, routes and permissions (a text
 * page copied to voice) score above 0.9; pages that share their body through a fragment keep
 * only the `$ref` line in common.
 *
 * Line figures: physical lines of each file now against the same file at the baseline commit
 * (472e2c1, before this work), for files present in both.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { listJsonFiles } from '../../server/schemas/read.js';
import { showAt } from './git.js';

export const BASELINE_COMMIT = '472e2c1';
/**
 * Issue 22's goals for the page, form and fragment files counted by lineFigures: lines (60 % of
 * the 18,229 lines pages and forms had before fragments; with today's formatting), values (leaf
 * lines) and the largest list page.
 */
export const GOALS = { lines: 10_937, values: 9_800, largestList: 200 } as const;
export const SIMILARITY_LIMIT = 0.9;
export const PAGE_DIRS = ['schemas/pages', 'schemas/forms'];
export const FRAGMENT_DIR = 'schemas/fragments';

type Json = unknown;
const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** The canonical leaf lines of a document (see the file comment). */
export function leafLines(doc: Json): string[] {
  const out: string[] = [];
  const walk = (v: Json, p: string): void => {
    if (Array.isArray(v)) {
      v.forEach((el, i) => {
        const name = isObject(el) ? (['key', 'id', 'name', 'value'].map((k) => el[k]).find((x) => typeof x === 'string' || typeof x === 'number') ?? i) : i;
        walk(el, `${p}[${String(name)}]`);
      });
      if (!v.length) out.push(`${p} = []`);
      return;
    }
    if (isObject(v)) {
      const keys = Object.keys(v).sort();
      if (!keys.length) out.push(`${p} = {}`);
      for (const k of keys) if (!(p === '' && k === '$schema')) walk(v[k], `${p}/${k}`);
      return;
    }
    out.push(`${p} = ${JSON.stringify(v)}`);
  };
  walk(doc, '');
  return out;
}

const counts = (lines: readonly string[]) => {
  const m = new Map<string, number>();
  for (const l of lines) m.set(l, (m.get(l) ?? 0) + 1);
  return m;
};

/** Dice coefficient of two multisets of lines (0…1). */
export function similarity(a: readonly string[], b: readonly string[]): number {
  if (!a.length && !b.length) return 1;
  const ca = counts(a);
  let common = 0;
  for (const [l, n] of counts(b)) common += Math.min(n, ca.get(l) ?? 0);
  return (2 * common) / (a.length + b.length);
}

export interface SchemaText {
  /** relative to the project root */
  file: string;
  text: string;
}

export interface Pair {
  a: string;
  b: string;
  similarity: number;
}

/** Every pair of documents, most alike first (files that do not parse are skipped). */
export function pairs(files: readonly SchemaText[]): Pair[] {
  const parsed: Array<{ file: string; lines: string[] }> = [];
  for (const f of files) {
    try {
      parsed.push({ file: f.file, lines: leafLines(JSON.parse(f.text)) });
    } catch {
      // schemas:check reports it
    }
  }
  const out: Pair[] = [];
  for (let i = 0; i < parsed.length; i++) {
    for (let j = i + 1; j < parsed.length; j++) {
      out.push({ a: parsed[i].file, b: parsed[j].file, similarity: similarity(parsed[i].lines, parsed[j].lines) });
    }
  }
  return out.sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a));
}

export const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The page and form files of the working tree. */
export async function readPageTexts(root: string): Promise<SchemaText[]> {
  const files = (await Promise.all(PAGE_DIRS.map((d) => listJsonFiles(path.join(root, d))))).flat();
  return Promise.all(
    files.map(async (abs) => ({ file: path.relative(root, abs).split(path.sep).join('/'), text: await readFile(abs, 'utf8') })),
  );
}

export interface LineFigures {
  /** files present now and at the baseline */
  files: Array<{ file: string; before: number; now: number }>;
  before: number;
  now: number;
  /** lines of the fragment files (schemas/fragments) the pages share now */
  fragments: number;
  /** share of lines saved on those files, the fragments counted as theirs (0…1) */
  saved: number;
  /** lines of every page and form file now (new ones included) */
  totalNow: number;
  /** leaf lines (scalar values, leafLines) of those files before, and now with the fragments: a measure formatting cannot move */
  leavesBefore: number;
  leavesNow: number;
}

export async function lineFigures(root: string, current: readonly SchemaText[], baseline = BASELINE_COMMIT): Promise<LineFigures> {
  const files: LineFigures['files'] = [];
  let leavesBefore = 0;
  let leavesNow = 0;
  const leaves = (text: string) => {
    try {
      return leafLines(JSON.parse(text)).length;
    } catch {
      return 0;
    }
  };
  await Promise.all(
    current.map(async (f) => {
      const old = await showAt(root, baseline, f.file);
      if (old === null) return;
      files.push({ file: f.file, before: lineCount(old), now: lineCount(f.text) });
      leavesBefore += leaves(old);
      leavesNow += leaves(f.text);
    }),
  );
  files.sort((a, b) => a.file.localeCompare(b.file));
  const fragmentTexts = await Promise.all((await listJsonFiles(path.join(root, FRAGMENT_DIR))).map((f) => readFile(f, 'utf8')));
  const fragments = fragmentTexts.reduce((s, t) => s + lineCount(t), 0);
  leavesNow += fragmentTexts.reduce((s, t) => s + leaves(t), 0);
  const before = files.reduce((s, f) => s + f.before, 0);
  const now = files.reduce((s, f) => s + f.now, 0);
  return {
    files, before, now, fragments,
    saved: before ? 1 - (now + fragments) / before : 0,
    totalNow: current.reduce((s, f) => s + lineCount(f.text), 0),
    leavesBefore, leavesNow,
  };
}

export const percent = (x: number): string => `${(x * 100).toFixed(1)} %`;

/** The pairs at or above the limit, as schemas:check problems (one per pair, on the first file). */
export function similarityProblems(all: readonly Pair[], limit = SIMILARITY_LIMIT) {
  return all
    .filter((p) => p.similarity >= limit)
    .map((p) => ({
      file: p.a,
      pointer: '',
      reason: `${percent(p.similarity)} alike ${p.b} (limit ${percent(limit)}; share the common part through a fragment, see docs/schemas.md — npm run schemas:similarity)`,
    }));
}
