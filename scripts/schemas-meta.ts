/**
 * Writes the JSON meta-schemas of the schema language (schemas/meta/*.schema.json, with the
 * editor value lists: widget names, enum ids, permission keys, API refs of the project) and
 * the precompiled runtime validators from the typed source in schemas/meta/src.
 * `--check`: exit 1 when the committed files differ.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedFiles } from './lib/project-inputs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
let stale = 0;
for (const [name, text] of Object.entries(await generatedFiles(root))) {
  const file = join(root, name);
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    /* new file */
  }
  if (current === text) continue;
  if (check) {
    stale++;
    console.error(`${name} is out of date: run npm run schemas:meta`);
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`wrote ${name}`);
  }
}
// the route table keeps database and timer modules loaded
process.exit(stale ? 1 : 0);
