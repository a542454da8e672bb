// @db once
/**
 * Hostile uploads through every real upload route (issue 12): learn-doc/create, the policy
 * import, the douyin product import, the session-category import and the ops-tools file upload.
 * Zip and XML bombs, an oversize file, an empty one, the wrong type, path-traversal names and
 * names over 255 characters each get a clear 40001 naming the file, nothing is stored (every
 * table of the app unchanged, no audit row), and an admin's `shop/list` running meanwhile
 * answers no slower than its baseline allows (tests/api/responsive.ts).
 *
 * The ops-tools upload keeps any file as bytes and never opens it, so a zip there is a file
 * like any other: it is stored as sent (not inflated) and the server stays responsive.
 */
import { expectResponsive, whileWorking } from './responsive.js';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docx, docxBody, entityBombXml, zip } from '../../server/ai/parse/test-fixtures.js';
import type { Config } from '../../server/config.js';
import { startServer, type ApiClient, type ApiResponse, type TestServer } from './harness.js';
import { multipart, postForm } from './business/helpers.js';
import { changedTables, tableChecksums } from './fuzz/db-watch.js';

const MB = 1024 * 1024;
/** written by any request (session last-seen, request counters), not by what is uploaded */
const BOOKKEEPING = ['sessions', 'rate_limit_hit', 'login_throttle', 'login_failures', 'work_worker'];

let s: TestServer;
let admin: ApiClient;
const fx = { shopId: 0, douyinShopId: 0 };
beforeAll(async () => {
  // demo data (shops to import into); no job workers, so nothing but the uploads writes
  s = await startServer({ seedDemo: true, config: { workers: 0, rateLimitPerMinute: 0 } as Partial<Config> });
  admin = await s.login();
  const one = async (sql: string) => (await s.db.query<{ id: number }>(sql)).rows[0].id;
  fx.shopId = await one(`SELECT id FROM shop WHERE type = 1 ORDER BY id LIMIT 1`);
  fx.douyinShopId = await one(`SELECT id FROM shop WHERE type = 2 ORDER BY id LIMIT 1`);
}, 180_000);
afterAll(async () => s?.close());

interface UploadRoute {
  path: string;
  /** documents (parsed) or sheets (imported rows) or any file (kept as bytes) */
  kind: 'doc' | 'sheet' | 'store';
  fields: () => Record<string, string>;
  /** a good file of the route's kind, to prove the route works */
  good: () => Promise<{ name: string; data: Buffer | string }>;
}

const xlsx = async (rows: unknown[][]) => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('s');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
};

const ROUTES: UploadRoute[] = [
  { path: 'learn-doc/create', kind: 'doc', fields: () => ({ shop_id: String(fx.shopId) }), good: async () => ({ name: 'ok.docx', data: await docx(docxBody(['Returns within 7 days.'])) }) },
  { path: 'policy-import/import', kind: 'sheet', fields: () => ({ shop_id: String(fx.shopId) }), good: async () => ({ name: 'ok.xlsx', data: await xlsx([['title', 'content'], ['Hostile ok', 'content']]) }) },
  {
    path: 'shop/douyin-shop-policy-product/import-product',
    kind: 'sheet',
    fields: () => ({ shop_id: String(fx.douyinShopId) }),
    good: async () => ({ name: 'ok.xlsx', data: await xlsx([['product_id', 'title'], ['HOSTILE-OK', 'ok']]) }),
  },
  { path: 'session-category/item/import', kind: 'sheet', fields: () => ({}), good: async () => ({ name: 'ok.xlsx', data: await xlsx([['group', 'name'], ['Hostile group', 'ok']]) }) },
  { path: 's3-file/upload', kind: 'store', fields: () => ({}), good: async () => ({ name: 'ok.txt', data: 'fine' }) },
];

/** the bomb of a route's kind: a DOCX or an XLSX (or a plain zip) of 200 MB of spaces in a few hundred KB */
async function zipBomb(kind: UploadRoute['kind']): Promise<{ name: string; data: Buffer }> {
  if (kind === 'doc') return { name: 'bomb.docx', data: await docx({ name: 'word/document.xml', zeros: 200 * MB, fill: 0x20 }) };
  const data = await zip([
    { name: '[Content_Types].xml', data: '<Types/>' },
    { name: 'xl/worksheets/sheet1.xml', zeros: 200 * MB, fill: 0x20 },
  ]);
  return { name: kind === 'store' ? 'bomb.zip' : 'bomb.xlsx', data };
}

/** billion laughs inside the route's kind of Office file */
async function xmlBomb(kind: UploadRoute['kind']): Promise<{ name: string; data: Buffer }> {
  if (kind === 'doc') return { name: 'laughs.docx', data: await docx(entityBombXml()) };
  const ents = ['<!ENTITY l0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`)].join('');
  const sheet = `<?xml version="1.0"?><!DOCTYPE worksheet [${ents}]><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&l9;</t></is></c></row></sheetData></worksheet>`;
  return { name: kind === 'store' ? 'laughs.zip' : 'laughs.xlsx', data: await zip([{ name: '[Content_Types].xml', data: '<Types/>' }, { name: 'xl/worksheets/sheet1.xml', data: sheet }]) };
}

/** `work` while an admin calls shop/list every 50 ms (tests/api/responsive.ts). */
const meanwhile = (work: () => Promise<ApiResponse>) => whileWorking(() => admin.get('shop/list', { page: 1, page_size: 20 }), work);

const auditMax = async () => Number((await s.db.query<{ id: number | null }>('SELECT max(id) AS id FROM audit_logs')).rows[0].id ?? 0);

/** uploads and expects a 40001 on the file whose message matches, nothing stored, shop/list fast */
async function expectRefused(route: UploadRoute, file: { name: string; data: Buffer | string } | null, says: RegExp) {
  const before = await tableChecksums(s.db, BOOKKEEPING);
  const a0 = await auditMax();
  const m = await meanwhile(() => postForm(admin, route.path, multipart(file, route.fields())));
  const result = m.result;
  const where = `${route.path} ${file ? `${file.name.slice(0, 40)} (${file.data.length} bytes)` : 'no file'}`;
  expect(result.status, where).toBe(200);
  expect(result.body.code, `${where}: ${result.body.msg}`).toBe(40001);
  expect(result.body.data?.errors?.[0]?.field, where).toBe('file');
  expect(result.body.msg, where).toMatch(says);
  expectResponsive(m, `${where}: shop/list`);
  expect(changedTables(before, await tableChecksums(s.db, BOOKKEEPING)), `${where}: tables written`).toEqual([]);
  expect(await auditMax(), `${where}: audit rows`).toBe(a0);
}

describe.each(ROUTES.map((r) => [r.path, r] as const))('%s', (_path, route) => {
  it('takes a good file (the route works)', async () => {
    const r = await postForm(admin, route.path, multipart(await route.good(), route.fields()));
    expect(r.body.code, r.body.msg).toBe(10000);
  });

  it('a zip bomb: refused, or (file store) kept as bytes and never inflated', async () => {
    const bomb = await zipBomb(route.kind);
    expect(bomb.data.length).toBeLessThan(MB);
    if (route.kind !== 'store') return expectRefused(route, bomb, /bomb|炸弹/);
    const m = await meanwhile(() => postForm(admin, route.path, multipart(bomb, route.fields())));
    expect(m.result.body.code, m.result.body.msg).toBe(10000);
    expect(m.result.body.data.size).toBe(bomb.data.length);
    expectResponsive(m, 'shop/list');
  });

  it('an XML entity bomb: refused before anything is stored', async () => {
    const bomb = await xmlBomb(route.kind);
    if (route.kind === 'store') return; // kept as bytes, never parsed (above)
    await expectRefused(route, bomb, /DTD|XML|bomb|实体/);
  });

  it('an oversize file (10 MB + 1 byte): refused', async () => {
    await expectRefused(route, { name: route.kind === 'store' ? 'big.bin' : route.kind === 'doc' ? 'big.txt' : 'big.csv', data: Buffer.alloc(10 * MB + 1, 0x61) }, /10 MB/);
  });

  it('an empty file and no file at all: refused', async () => {
    await expectRefused(route, { name: route.kind === 'sheet' ? 'empty.csv' : 'empty.txt', data: '' }, /.+/);
    await expectRefused(route, null, /.+/);
  });

  it('the wrong type: refused naming the types it takes', async () => {
    if (route.kind === 'store') return; // any type is a file to keep
    await expectRefused(route, { name: 'tool.exe', data: Buffer.from('MZ\x90\x00 not a document') }, /exe|type|类型|csv|xlsx/i);
    // a name that claims a type the bytes are not
    await expectRefused(route, { name: route.kind === 'doc' ? 'fake.docx' : 'fake.xlsx', data: 'plain text, not a zip' }, /.+/);
  });

  it('path-traversal names and names over 255 characters: refused', async () => {
    const ext = route.kind === 'doc' ? 'txt' : route.kind === 'sheet' ? 'csv' : 'txt';
    const data = route.kind === 'sheet' ? 'title,content\nx,y\n' : 'hello';
    for (const name of [`../../etc/passwd.${ext}`, `..\\..\\windows\\system32\\evil.${ext}`, `/etc/cron.d/x.${ext}`, `a/../../b.${ext}`]) {
      await expectRefused(route, { name, data }, /path|路径/);
    }
    await expectRefused(route, { name: `${'n'.repeat(300)}.${ext}`, data }, /255/);
    await expectRefused(route, { name: `${'名'.repeat(256)}.${ext}`, data }, /255/);
    await expectRefused(route, { name: `bell\u0007and\u0001.${ext}`, data }, /control|控制/);
  });
});
