/** The console runs under a CSP without 'unsafe-eval': nothing we ship may call eval / new Function. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const src = join(dirname(fileURLToPath(import.meta.url)), '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return files(p);
    return /\.(ts|tsx|js)$/.test(n) && !/\.test\.tsx?$/.test(n) ? [p] : [];
  });
}

it('src/runtime and src/widgets never call eval or new Function', () => {
  const offenders = [...files(join(src, 'runtime')), ...files(join(src, 'widgets'))].filter((f) => {
    const text = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    return /\bnew Function\s*\(|\beval\s*\(/.test(text);
  });
  expect(offenders).toEqual([]);
});
