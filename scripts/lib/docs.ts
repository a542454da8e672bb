/**
 * Schema documents of a tree, from the working tree or from a git ref (unreadable files skipped,
 * with a note). Documents are EXPANDED (fragments resolved with the fragments of the same tree or
 * ref, defaults filled in: server/schemas/expand.ts), so the diff and the version rule compare
 * what is served: a fragment change shows on every page that uses it, and a refactor that leaves
 * the expanded schema equal is no change.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FRAGMENTS_DIR, expandDoc, fsFragmentReader, type FragmentReader } from '../../server/schemas/expand.js';
import { listJsonFiles } from '../../server/schemas/read.js';
import { SCHEMA_DIRS } from '../../server/schemas/validate.js';
import { filesAt, showAt } from './git.js';

type Doc = Record<string, unknown>;
const DIRS = SCHEMA_DIRS.map((d) => `schemas/${d}`);

/** The fragment files of a git ref, read once (a reader for expandDoc). */
const readersAt = new Map<string, Promise<FragmentReader>>();
export function fragmentReaderAt(root: string, ref: string): Promise<FragmentReader> {
  const key = `${root}\n${ref}`;
  let r = readersAt.get(key);
  if (!r) {
    r = (async () => {
      const files = await filesAt(root, ref, [`schemas/${FRAGMENTS_DIR}`]);
      const texts = new Map<string, string>();
      await Promise.all(
        files.map(async (f) => {
          const t = await showAt(root, ref, f);
          if (t !== null) texts.set(path.resolve(root, f), t);
        }),
      );
      return (abs: string) => texts.get(path.resolve(abs)) ?? null;
    })();
    readersAt.set(key, r);
  }
  return r;
}

/** Parses and expands a schema text (`file` relative to root); null when unreadable. */
export function parse(text: string, where: string, root?: string, file?: string, read: FragmentReader = fsFragmentReader): Doc | null {
  try {
    const d = JSON.parse(text) as unknown;
    if (d && typeof d === 'object' && !Array.isArray(d) && typeof (d as Doc).id === 'string') {
      if (root === undefined || file === undefined) return d as Doc;
      return expandDoc(d as Doc, file, path.resolve(root, file), path.join(root, 'schemas'), { read }).doc;
    }
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
      const doc = parse(await readFile(f, 'utf8'), file, root, file);
      return doc ? { file, doc } : null;
    }),
  );
  return docs.filter((d): d is SchemaFile => d !== null);
}

export async function readSchemaFilesAt(root: string, ref: string): Promise<SchemaFile[]> {
  const files = (await filesAt(root, ref, DIRS)).filter((f) => f.endsWith('.json'));
  const read = await fragmentReaderAt(root, ref);
  const docs = await Promise.all(
    files.map(async (file) => {
      const text = await showAt(root, ref, file);
      const doc = text === null ? null : parse(text, `${ref.slice(0, 12)}:${file}`, root, file, read);
      return doc ? { file, doc } : null;
    }),
  );
  return docs.filter((d): d is SchemaFile => d !== null);
}

