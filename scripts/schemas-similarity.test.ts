import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { leafLines, pairs, similarity, similarityProblems } from './lib/similarity.js';
import { main } from './schemas-similarity.js';

const page = (id: string, ns: string) => ({
  $schema: '../../meta/list.schema.json',
  id,
  kind: 'list',
  title: `${ns}.shop.title`,
  columns: Array.from({ length: 20 }, (_, i) => ({ key: `c${i}`, title: `shared.shop.c${i}`, width: 100 + i })),
});

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

function tree(files: Record<string, unknown>): string {
  dir = mkdtempSync(path.join(tmpdir(), 'similarity-'));
  for (const [f, doc] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), JSON.stringify(doc, null, 2) + '\n');
  }
  return dir;
}

describe('schemas:similarity', () => {
  it('measures Dice over canonical leaf lines, keyed array elements, $schema left out', () => {
    const a = leafLines({ $schema: 'x', columns: [{ key: 'id', width: 1 }] });
    expect(a).toEqual(['/columns[id]/key = "id"', '/columns[id]/width = 1']);
    expect(similarity(a, a)).toBe(1);
    expect(similarity(a, ['/columns[id]/key = "id"'])).toBeCloseTo(2 / 3);
  });

  it('fails (exit 1, a check problem) when two page schemas are 90 % alike or more', async () => {
    const root = tree({
      'schemas/pages/a/shop.list.json': page('a.shop_list', 'text'),
      'schemas/pages/b/shop.list.json': page('b.shop_list', 'voice'),
      'schemas/forms/a/other.json': { id: 'a.other', kind: 'form', schema: { type: 'object' } },
    });
    const out: string[] = [];
    expect(await main([], root, (l) => out.push(l))).toBe(1);
    expect(out.join('\n')).toMatch(/9\d\.\d % {2}schemas\/pages\/a\/shop\.list\.json {2}~ {2}schemas\/pages\/b\/shop\.list\.json/);
    expect(out.at(-1)).toMatch(/1 pair\(s\) at or above 90\.0 %/);
    const problems = similarityProblems(pairs([{ file: 'x.json', text: JSON.stringify(page('x', 'text')) }, { file: 'y.json', text: JSON.stringify(page('y', 'voice')) }]));
    expect(problems).toHaveLength(1);
    expect(problems[0].reason).toMatch(/alike y\.json \(limit 90\.0 %/);
  });

  it('passes when the pages share their body through a fragment', async () => {
    const root = tree({
      'schemas/pages/a/shop.list.json': { id: 'a.shop_list', kind: 'list', title: 'text.shop.title', columns: [{ $ref: '../../fragments/shop.json#/columns' }] },
      'schemas/pages/b/shop.list.json': { id: 'b.shop_list', kind: 'list', title: 'voice.shop.title', columns: [{ $ref: '../../fragments/shop.json#/columns' }] },
    });
    expect(await main([], root, () => {})).toBe(0);
  });
});
