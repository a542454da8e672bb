// @db once
/**
 * Hostile uploads (issue 12, item 2): zip bombs, a zip whose directory lies, an XML entity bomb,
 * encrypted and broken files, an import over its row limit. Each gets a clear answer, nothing
 * bad is stored, and the server keeps answering other requests while it deals with them
 * (shop/list no slower than its baseline allows: tests/api/responsive.ts).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docx, docxBody, entityBombXml, zip } from '../../../server/ai/parse/test-fixtures.js';
import { POLICY_IMPORT_MAX_ROWS } from '../../../server/resources/config/policy-import.js';
import type { ApiResponse } from '../harness.js';
import { expectResponsive, whileWorking } from '../responsive.js';
import { auditMaxId, count, expectFieldError, fingerprint, multipart, postForm, startBiz, type BizEnv } from './helpers.js';

const MB = 1024 * 1024;
let env: BizEnv;
beforeAll(async () => {
  env = await startBiz();
});
afterAll(async () => {
  await env?.s.close();
});

/** `work` while an admin calls shop/list every 50 ms (tests/api/responsive.ts). */
const meanwhile = <T>(work: () => Promise<T>) => whileWorking(() => env.admin.get('shop/list', { page: 1, page_size: 20 }), work);

const upload = (name: string, data: Buffer) => postForm(env.admin, 'learn-doc/create', multipart({ name, data }, { shop_id: String(env.fx.shopId) }));

describe('learn-doc/create refuses bombs before storing anything', () => {
  it('a 200 MB docx bomb (a few hundred KB uploaded): 40001 on file naming the bomb, no row, shop/list stays fast', async () => {
    const bomb = await docx({ name: 'word/document.xml', zeros: 200 * MB, fill: 0x20 });
    expect(bomb.length).toBeLessThan(MB);
    const before = await fingerprint(env.s, 'learn_doc');
    const a0 = await auditMaxId(env.s);
    const m = await meanwhile(() => upload('policy.docx', bomb));
    expectFieldError(m.result, 'file');
    expect(m.result.body.msg).toContain('zip or XML bomb');
    expect(m.result.body.msg).toContain('200 MB');
    expect(m.result.body.msg).toContain('压缩炸弹');
    expectResponsive(m, 'shop/list');
    expect(await fingerprint(env.s, 'learn_doc')).toBe(before);
    expect(await auditMaxId(env.s)).toBe(a0);
  });

  it('too many entries, an encrypted docx and a docx that is not a zip: 40001 on file with the reason, nothing stored', async () => {
    const n0 = await count(env.s, 'learn_doc');
    const many = await zip(Array.from({ length: 2500 }, (_, i) => ({ name: `word/p${i}.xml`, data: '<a/>' })));
    const cases: Array<[Buffer, string]> = [
      [many, '2500 entries'],
      [await zip([{ name: 'word/document.xml', data: docxBody(['x']), encrypted: true }]), 'password-protected'],
      [Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600), Buffer.from('EncryptedPackage', 'utf16le')]), '文档已加密'],
      [Buffer.from('just some text named .docx'), 'cannot be read'],
    ];
    for (const [data, says] of cases) {
      const r = await upload('x.docx', data);
      expectFieldError(r, 'file');
      expect(r.body.msg).toContain(says);
    }
    const notPdf = await upload('x.pdf', Buffer.from('MZ not a pdf'));
    expectFieldError(notPdf, 'file');
    expect(notPdf.body.msg).toContain('%PDF');
    expect(await count(env.s, 'learn_doc')).toBe(n0);
  });

  it('a docx whose directory lies (2 KB declared, 100 MB inside): inflated once off the server thread at upload, 40001 on file, nothing stored', async () => {
    const liar = await docx({ name: 'word/document.xml', zeros: 100 * MB, fill: 0x20, declaredSize: 2000 });
    const n0 = await count(env.s, 'learn_doc');
    const m = await meanwhile(() => upload('liar.docx', liar));
    expectFieldError(m.result, 'file');
    expect(m.result.body.msg).toContain('inflates past its declared size');
    expectResponsive(m, 'shop/list');
    expect(await count(env.s, 'learn_doc')).toBe(n0);
  });

  it('an XML entity bomb (billion laughs) is never expanded: 40001 on file at upload (a DTD), nothing stored', async () => {
    const n0 = await count(env.s, 'learn_doc');
    const m = await meanwhile(async () => upload('laughs.docx', await docx(entityBombXml())));
    expectFieldError(m.result, 'file');
    expect(m.result.body.msg).toContain('DTD');
    expectResponsive(m, 'shop/list');
    expect(await count(env.s, 'learn_doc')).toBe(n0);
  });
});

describe('imports: the zip guard and the row limit while reading', () => {
  const path = 'shop/douyin-shop-policy-product/import-product';

  it('an XLSX bomb to import-product: 40001 on file, nothing written, shop/list stays fast', async () => {
    const bomb = await zip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'xl/worksheets/sheet1.xml', zeros: 200 * MB, fill: 0x20 },
    ]);
    const before = await fingerprint(env.s, 'douyin_product');
    const m = await meanwhile(() => postForm(env.admin, path, multipart({ name: 'p.xlsx', data: bomb }, { shop_id: String(env.fx.douyinShopId) })));
    expectFieldError(m.result, 'file');
    expect(m.result.body.msg).toContain('bomb');
    expectResponsive(m, 'shop/list');
    expect(await fingerprint(env.s, 'douyin_product')).toBe(before);
  });

  it('an XLSX with more rows than the policy import allows is refused without importing any', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('policies');
    ws.addRow(['title', 'content']);
    for (let i = 0; i < POLICY_IMPORT_MAX_ROWS + 500; i++) ws.addRow([`Policy ${i}`, `Content ${i}`]);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const before = await fingerprint(env.s, 'policy');
    const m = await meanwhile<ApiResponse>(() => postForm(env.admin, 'policy-import/import', multipart({ name: 'p.xlsx', data }, { shop_id: String(env.fx.shopId) })));
    expectFieldError(m.result, 'file');
    expect(m.result.body.msg).toContain(`at most ${POLICY_IMPORT_MAX_ROWS} rows`);
    expectResponsive(m, 'shop/list');
    expect(await fingerprint(env.s, 'policy')).toBe(before);
  });
});
