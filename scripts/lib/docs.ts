/** Schema documents of a tree, from the working tree or from a git ref (unreadable files skipped, with a note). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { listJsonFiles } from '../../server/schemas/read.js';
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

/** A schema document with its file, relative to the project root (`/` separated). */
export interface SchemaFile {
  file: string;
  doc: Doc;
}

export async function readSchemaFiles(root: string): Promise<SchemaFile[]> {
  const files = (await Promise.all(DIRS.map((d) => listJsonFiles(path.join(root, d))))).flat();
  const docs = await Promise.all(
    files.map(async (f) => {
      const file = path.relative(root, f).split(path.sep).join('/');
      const doc = parse(await readFile(f, 'utf8'), file);
      return doc ? { file, doc } : null;
    }),
  );
  return docs.filter((d): d is SchemaFile => d !== null);
}

export async function readSchemaFilesAt(root: string, ref: string): Promise<SchemaFile[]> {
  const files = (await filesAt(root, ref, DIRS)).filter((f) => f.endsWith('.json'));
  const docs = await Promise.all(
    files.map(async (file) => {
      const text = await showAt(root, ref, file);
      const doc = text === null ? null : parse(text, `${ref.slice(0, 12)}:${file}`);
      return doc ? { file, doc } : null;
    }),
  );
  return docs.filter((d): d is SchemaFile => d !== null);
}

export const readSchemaDocs = async (root: string): Promise<Doc[]> => (await readSchemaFiles(root)).map((e) => e.doc);
export const readSchemaDocsAt = async (root: string, ref: string): Promise<Doc[]> => (await readSchemaFilesAt(root, ref)).map((e) => e.doc);
