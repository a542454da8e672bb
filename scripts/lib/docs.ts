/** Schema documents of a tree, from the working tree or from a git ref (unreadable files skipped, with a note). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { listJsonFiles } from '../../server/schemas/loader.js';
import { SCHEMA_DIRS } from '../../server/schemas/validate.js';
import { filesAt, showAt } from './git.js';

type Doc = Record<string, unknown>;
const DIRS = SCHEMA_DIRS.map((d) => `schemas/${d}`);

function parse(text: string, where: string): Doc | null {
  try {
    const d = JSON.parse(text) as unknown;
    if (d && typeof d === 'object' && !Array.isArray(d) && typeof (d as Doc).id === 'string') return d as Doc;
  } catch {
    // reported below
  }
  console.error(`note: ${where} is not a readable schema, skipped`);
  return null;
}

export async function readSchemaDocs(root: string): Promise<Doc[]> {
  const files = (await Promise.all(DIRS.map((d) => listJsonFiles(path.join(root, d))))).flat();
  const docs = await Promise.all(files.map(async (f) => parse(await readFile(f, 'utf8'), path.relative(root, f))));
  return docs.filter((d): d is Doc => d !== null);
}

export async function readSchemaDocsAt(root: string, ref: string): Promise<Doc[]> {
  const files = (await filesAt(root, ref, DIRS)).filter((f) => f.endsWith('.json'));
  const docs = await Promise.all(
    files.map(async (f) => {
      const text = await showAt(root, ref, f);
      return text === null ? null : parse(text, `${ref.slice(0, 12)}:${f}`);
    }),
  );
  return docs.filter((d): d is Doc => d !== null);
}
