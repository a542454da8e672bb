/** The zip guard on its own (no worker): directory checks, lies about sizes, DTDs, encryption. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ParseError, type ParseReason } from './errors.js';
import { docx, docxBody, entityBombXml, zip } from './test-fixtures.js';
import { inflateAll, inspectZip, ZIP_LIMITS } from './zip-guard.js';

const MB = 1024 * 1024;

async function reason(p: Promise<unknown>): Promise<ParseReason> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ParseError);
  const e = err as ParseError;
  expect(e.message).toMatch(/ \/ .*[\u4e00-\u9fff]/); // english / 中文
  return e.reason;
}

describe('inspectZip (central directory only)', () => {
  it('passes a normal docx and sums its entries', async () => {
    const file = await docx(docxBody(['Returns within 30 days.']));
    const s = await inspectZip(file, 'docx');
    expect(s.entries).toBe(3);
    expect(s.totalBytes).toBeGreaterThan(s.compressedBytes);
  });

  it('refuses a 200 MB entry packed in a few hundred KB as a bomb, within milliseconds', async () => {
    const bomb = await docx({ name: 'word/document.xml', zeros: 200 * MB, fill: 0x20 });
    expect(bomb.length).toBeLessThan(1 * MB);
    const t0 = performance.now();
    const err = (await inspectZip(bomb, 'docx').catch((e: unknown) => e)) as ParseError;
    expect(performance.now() - t0).toBeLessThan(200);
    expect(err.reason).toBe('bomb');
    expect(err.message).toContain('word/document.xml');
    expect(err.message).toContain('200 MB');
  });

  it('refuses a ratio over the cap on an entry over 1 MB, and a total over the cap', async () => {
    const ratio = await zip([{ name: 'a.xml', zeros: 2 * MB }]); // zeros deflate ~1000:1
    expect(await reason(inspectZip(ratio, 'docx'))).toBe('bomb');
    // under the floor, a high ratio is fine (small XML parts compress well)
    expect((await inspectZip(await zip([{ name: 'a.xml', zeros: 512 * 1024 }]), 'docx')).entries).toBe(1);
    // many incompressible-looking entries whose declared total passes the cap: too_large
    const total = await zip([{ name: 'a.bin', data: randomBytes(700 * 1024) }, { name: 'b.bin', data: randomBytes(700 * 1024) }]);
    expect(await reason(inspectZip(total, 'xlsx', { ...ZIP_LIMITS, maxTotalBytes: 1 * MB }))).toBe('too_large');
  });

  it('refuses more entries than the cap before reading them', async () => {
    const many = await zip(Array.from({ length: 30 }, (_, i) => ({ name: `f${i}.xml`, data: '<a/>' })));
    expect(await reason(inspectZip(many, 'docx', { ...ZIP_LIMITS, maxEntries: 20 }))).toBe('bomb');
  });

  it('tells encrypted, legacy and broken files apart', async () => {
    expect(await reason(inspectZip(await zip([{ name: 'word/document.xml', data: 'x', encrypted: true }]), 'docx'))).toBe('encrypted');
    const cfb = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512), Buffer.from('EncryptedPackage', 'utf16le')]);
    expect(await reason(inspectZip(cfb, 'docx'))).toBe('encrypted');
    const oldDoc = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    expect(await reason(inspectZip(oldDoc, 'docx'))).toBe('unsupported');
    expect(await reason(inspectZip(Buffer.from('hello, not a zip'), 'docx'))).toBe('corrupt');
    const good = await docx(docxBody(['x']));
    expect(await reason(inspectZip(good.subarray(0, good.length - 30), 'docx'))).toBe('corrupt');
  });
});

describe('inflateAll (every entry inflated once, counted)', () => {
  it('inflates a normal docx', async () => {
    const body = docxBody(['Warranty: 12 months.']);
    expect(await inflateAll(await docx(body), 'docx')).toBeGreaterThan(body.length);
  });

  it('catches an entry that declares 1 KB and inflates to 100 MB, stopping early', async () => {
    const liar = await docx({ name: 'word/document.xml', zeros: 100 * MB, fill: 0x20, declaredSize: 1000 });
    expect((await inspectZip(liar, 'docx')).totalBytes).toBeLessThan(MB); // the directory looks harmless
    const rss0 = process.memoryUsage.rss();
    const t0 = performance.now();
    expect(await reason(inflateAll(liar, 'docx'))).toBe('bomb');
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(process.memoryUsage.rss() - rss0).toBeLessThan(50 * MB);
  });

  it('refuses an XML part with a DTD (billion laughs), whatever parser would read it', async () => {
    const bomb = await docx(entityBombXml());
    const err = (await inflateAll(bomb, 'docx').catch((e: unknown) => e)) as ParseError;
    expect(err.reason).toBe('bomb');
    expect(err.message).toContain('DTD');
  });
});
