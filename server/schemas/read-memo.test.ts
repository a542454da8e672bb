import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIST_FILE, makeFixture, type Fixture } from '../../scripts/lib/test-fixture.js';
import { readSchemas, type ValidationMemo } from './read.js';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

/** The memo a start keeps (server/app.ts): what passed the meta-schema check is not checked again. */
describe('readSchemas with a validation memo', () => {
  it('checks every document once, then only what changed — and a changed document that is invalid is still refused', async () => {
    const dir = path.join(fx.root, 'schemas');
    const memo: ValidationMemo = { validators: '', keys: [] };
    const first = await readSchemas(dir, undefined, memo);
    expect(first.problems).toEqual([]);
    expect(memo.checked).toBe(3);
    expect(memo.changed).toBe(true);
    expect(memo.keys).toHaveLength(3);

    const again = await readSchemas(dir, undefined, memo);
    expect(again.problems).toEqual([]);
    expect(again.schemas.map((s) => s.id)).toEqual(first.schemas.map((s) => s.id));
    expect(memo.checked).toBe(0);
    expect(memo.changed).toBe(false);

    // a valid edit: that document alone is checked
    fx.edit(LIST_FILE, (d) => (d.title = 'demo.item.name'));
    await readSchemas(dir, undefined, memo);
    expect(memo.checked).toBe(1);
    expect(memo.changed).toBe(true);

    // an invalid edit is checked and refused, naming the spot, and never enters the memo
    fx.edit(LIST_FILE, (d) => (d.columns = 'not a list'));
    const bad = await readSchemas(dir, undefined, memo);
    expect(memo.checked).toBe(1);
    expect(bad.problems.map((p) => `${p.file} ${p.pointer}`)).toContain(`${LIST_FILE} /columns`);
    expect(memo.keys).toHaveLength(2);
    const stillBad = await readSchemas(dir, undefined, memo);
    expect(stillBad.problems.length).toBeGreaterThan(0);
  });

  it('checks everything again when the check itself changed (another validators fingerprint or meta-schema)', async () => {
    const dir = path.join(fx.root, 'schemas');
    const memo: ValidationMemo = { validators: '', keys: [] };
    await readSchemas(dir, undefined, memo);
    const other = { ...memo, validators: 'an older check' };
    await readSchemas(dir, undefined, other);
    expect(other.checked).toBe(3);
    // a meta-schema file edited: its text is part of the fingerprint
    const metaFile = 'schemas/meta/enum.schema.json';
    fx.edit(metaFile, (d) => (d.description = 'edited'));
    const kept = { ...memo };
    await readSchemas(dir, undefined, kept);
    expect(kept.checked).toBe(3);
    expect(kept.validators).not.toBe(memo.validators);
  });
});
