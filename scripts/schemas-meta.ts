/**
 * Writes the JSON meta-schemas of the schema language (schemas/meta/*.schema.json) from the
 * typed source in schemas/meta/src. `--check`: exit 1 when the committed files differ.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderMetaFiles } from '../schemas/meta/src/files.js';
import { renderValidatorFiles } from '../schemas/meta/src/validators.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
let stale = 0;
const outputs: Array<[string, string]> = [
  ...Object.entries(renderMetaFiles()).map(([name, text]): [string, string] => [`schemas/meta/${name}`, text]),
  ...Object.entries(renderValidatorFiles()),
];
for (const [name, text] of outputs) {
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
if (stale) process.exit(1);
