/**
 * `npm run schemas:tidy [-- --check]`: removes from every page, form and fragment file each value
 * equal to its default or to the fragment it extends, turns shop filters into the shared
 * fragment and date ranges into `"type": "range"` — only where what is served stays the same
 * (scripts/lib/tidy.ts). Idempotent; run it again after adding or merging schema files.
 * `--check` writes nothing and exits 1 when something would change.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tidySchemas } from './lib/tidy.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function main(argv: string[] = process.argv.slice(2), dir = root, log = console.log): Promise<number> {
  const check = argv.includes('--check');
  const { changed, values } = await tidySchemas(dir);
  let lines = 0;
  let saved = 0;
  for (const [file, text] of changed) {
    const v = values.get(file)!;
    saved += v.before - v.after;
    log(`${file}: ${v.before} → ${v.after} values`);
    if (!check) await writeFile(path.join(dir, file), text);
    lines++;
  }
  log(`schemas:tidy: ${lines} file(s) ${check ? 'would change' : 'changed'}, ${saved} value(s) ${check ? 'to remove' : 'removed'}; what is served is unchanged`);
  return check && lines ? 1 : 0;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`schemas:tidy failed: ${err instanceof Error ? err.stack : String(err)}`);
      process.exit(2);
    },
  );
}
