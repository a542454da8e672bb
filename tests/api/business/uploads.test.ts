// @db once
/** Multipart uploads (learn-doc/create, douyin import-product) and the streamed export. */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docx, pdf } from './files.js';
import { auditMaxId, auditSince, count, expectFieldError, fingerprint, multipart, postForm, startBiz, type BizEnv } from './helpers.js';

const T = 'intelligent_text';
let env: BizEnv;
beforeAll(async () => {
  env = await startBiz();
});
afterAll(async () => {
  await env?.s.close();
});

async function waitLearned(id: number) {
  for (let i = 0; i < 100; i++) {
    const r = await env.admin.ok('POST', 'learn-doc/get-content', { id });
    if (r.status !== 0) return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('document was not learned');
}

describe('learn-doc/create', () => {
  const docs: Array<[string, Buffer | string, string]> = [
    ['faq.txt', 'Returns are free within 30 days.', 'Returns are free within 30 days.'],
    ['guide.md', '# Guide\nShip in 2 days.', '# Guide\nShip in 2 days.'],
    ['policy.docx', docx(['Warranty: 12 months.', 'Refunds & returns: 30 days.']), 'Warranty: 12 months.\nRefunds & returns: 30 days.'],
    ['terms.pdf', pdf(['Shipping takes 3-5 days.', 'Express (1-2 days) costs extra.']), 'Shipping takes 3-5 days.\nExpress (1-2 days) costs extra.'],
  ];
  it.each(docs)('uploads %s, learns it in the background, get-content returns its text', async (name, data, text) => {
    const holder = await env.as(`${T}.text.learn.doc_manage.create`);
    const a0 = await auditMaxId(env.s);
    const r = await postForm(holder, 'learn-doc/create', multipart({ name, data }, { shop_id: String(env.fx.shopId) }));
    expect(r.body.code, r.body.msg).toBe(10000);
    expect(r.body.data).toMatchObject({ name, status: 0, shop_id: env.fx.shopId });
    const done = await waitLearned(r.body.data.id);
    expect(done.status, done.error).toBe(1);
    expect(done.content.replace(/\s+/g, ' ').trim()).toBe(text.replace(/\s+/g, ' ').trim());
    const audit = await auditSince(env.s, a0);
    expect(audit.find((x) => x.action === 'create' && x.resource === 'learn_doc')?.after).toMatchObject({ name });
  });

  it('refuses a missing document (please upload doc / 请上传文档), a wrong type and an oversized file, writing nothing', async () => {
    const before = await fingerprint(env.s, 'learn_doc');
    const a0 = await auditMaxId(env.s);
    const none = await postForm(env.admin, 'learn-doc/create', multipart(null, { name: 'x' }));
    expectFieldError(none, 'file');
    expect(none.body.msg).toContain('please upload doc');
    expect(none.body.msg).toContain('请上传文档');
    expectFieldError(await postForm(env.admin, 'learn-doc/create', multipart({ name: 'x.exe', data: 'MZ' })), 'file');
    const big = await postForm(env.admin, 'learn-doc/create', multipart({ name: 'big.txt', data: Buffer.alloc(10 * 1024 * 1024 + 1, 97) }));
    expectFieldError(big, 'file');
    expect(big.body.msg).toContain('10 MB');
    expectFieldError(await postForm(env.admin, 'learn-doc/create', multipart({ name: 'a.txt', data: 'x' }, { shop_id: 'abc' })), 'shop_id');
    expect(await fingerprint(env.s, 'learn_doc')).toBe(before);
    expect(await auditMaxId(env.s)).toBe(a0);
  });

  it('40003 without the permission, nothing written', async () => {
    const before = await count(env.s, 'learn_doc');
    const r = await postForm(await env.as(`${T}.text.learn.doc_manage`), 'learn-doc/create', multipart({ name: 'a.txt', data: 'x' }));
    expect(r.body.code).toBe(40003);
    expect(await count(env.s, 'learn_doc')).toBe(before);
  });
});

describe('learn-doc/learn', () => {
  it('relearns (status 0 → 1) with an audit row; 40001 and 40003 write nothing', async () => {
    const id = env.fx.docId;
    const before = await fingerprint(env.s, 'learn_doc');
    expect((await env.outsider.post('learn-doc/learn', { id })).body.code).toBe(40003);
    expectFieldError(await env.admin.post('learn-doc/learn', { id: 'x' }), 'id');
    expect(await fingerprint(env.s, 'learn_doc')).toBe(before);
    const a0 = await auditMaxId(env.s);
    const r = await (await env.as(`${T}.text.learn.doc_manage.learn`)).post('learn-doc/learn', { id });
    expect(r.body.code, r.body.msg).toBe(10000);
    expect(r.body.data.status).toBe(0);
    expect((await waitLearned(id)).status).toBe(1);
    expect((await auditSince(env.s, a0)).some((x) => x.action === 'learn' && x.resource === 'learn_doc')).toBe(true);
  });
});

describe('learn-material/export', () => {
  it('streams CSV of the filtered rows', async () => {
    const holder = await env.as(`${T}.text.learn.material.export`);
    const res = await fetch(holder.url('learn-material/export'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'admin-token': holder.token!, cookie: [...holder.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      body: JSON.stringify({ format: 'csv', channel: 'email' }),
    });
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="learn-material-.*\.csv"/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // BOM, so Excel reads UTF-8
    const text = bytes.subarray(3).toString('utf8');
    const expected = (await env.s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM learn_material WHERE channel = 'email'`)).rows[0].n;
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('id,shop_id,shop_name,channel,source_type,subject,question,answer,status,ticket_learn,remark,created_at');
    // fields may hold quoted newlines: count record starts instead
    expect(text.match(/\r\n\d+,\d+,/g)?.length).toBe(expected);
  });

  it('streams XLSX readable by exceljs', async () => {
    const res = await fetch(env.admin.url('learn-material/export'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'admin-token': env.admin.token!, cookie: [...env.admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      body: JSON.stringify({ format: 'xlsx', status: 1 }),
    });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const expected = (await env.s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM learn_material WHERE status = 1`)).rows[0].n;
    expect(wb.worksheets[0].rowCount).toBe(expected + 1);
  });

  it('40001 names the field; 40003 without the permission', async () => {
    expectFieldError(await env.admin.post('learn-material/export', { format: 'pdf' }), 'format');
    expectFieldError(await env.admin.post('learn-material/export', { bogus: 1 }), 'bogus');
    expect((await (await env.as(`${T}.text.learn.material`)).post('learn-material/export', {})).body.code).toBe(40003);
  });
});

describe('douyin import-product', () => {
  const path = 'shop/douyin-shop-policy-product/import-product';

  it('imports a CSV: rows imported, skipped (existing / repeated) and failed with reasons, one audit row', async () => {
    const existing = (await env.s.db.query<{ product_id: string; shop_id: number }>(`SELECT product_id, shop_id FROM douyin_product ORDER BY id LIMIT 1`)).rows[0];
    const csv = [
      'shop_id,product_id,title,price,policy,remark',
      `${env.fx.douyinShopId},IMP-1,保温杯 A,59.9,7天无理由,`,
      `${env.fx.douyinShopId},IMP-2,"Mug, large",19,,`,
      `${env.fx.douyinShopId},IMP-1,repeat,1,,`,
      `${existing.shop_id},${existing.product_id},already there,1,,`,
      `${env.fx.douyinShopId},,no id,1,,`,
      `${env.fx.douyinShopId},IMP-3,bad price,-5,,`,
      `99999999,IMP-4,no such shop,1,,`,
    ].join('\n');
    const a0 = await auditMaxId(env.s);
    const r = await postForm(await env.as(`${T}.text.operations_tools.policy_import`), path, multipart({ name: 'products.csv', data: csv }));
    expect(r.body.code, r.body.msg).toBe(10000);
    expect(r.body.data).toMatchObject({ total: 7, imported: 2, skipped: 2, failed: 3 });
    expect(r.body.data.failed_rows.map((f: { row: number }) => f.row)).toEqual([6, 7, 8]);
    expect(r.body.data.skipped_rows.map((f: { reason: string }) => f.reason)).toEqual(['repeated in the file', 'already exists']);
    const audit = await auditSince(env.s, a0);
    expect(audit.find((x) => x.action === 'import')?.after).toMatchObject({ imported: 2, failed: 3 });
  });

  it('imports an XLSX with the shop given as a form field', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('p');
    ws.addRow(['product_id', 'title', 'price']);
    ws.addRow(['XL-1', '羊毛围巾', 129]);
    ws.addRow(['XL-2', '电动牙刷', 199]);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const r = await postForm(env.admin, path, multipart({ name: 'p.xlsx', data }, { shop_id: String(env.fx.douyinShopId) }));
    expect(r.body.code, r.body.msg).toBe(10000);
    expect(r.body.data).toMatchObject({ imported: 2, failed: 0 });
  });

  it('a file failing as a whole (missing columns, wrong type, empty) writes nothing; 40003 without the permission', async () => {
    const before = await fingerprint(env.s, 'douyin_product');
    const a0 = await auditMaxId(env.s);
    const missing = await postForm(env.admin, path, multipart({ name: 'p.csv', data: 'shop_id,title\n1,x\n' }));
    expectFieldError(missing, 'file');
    expect(missing.body.msg).toContain('product_id');
    expectFieldError(await postForm(env.admin, path, multipart({ name: 'p.txt', data: 'x' })), 'file');
    expectFieldError(await postForm(env.admin, path, multipart({ name: 'p.csv', data: 'shop_id,product_id,title\n' })), 'file');
    expectFieldError(await postForm(env.admin, path, multipart(null)), 'file');
    expect((await postForm(env.outsider, path, multipart({ name: 'p.csv', data: 'product_id,title\nA,b\n' }, { shop_id: '1' }))).body.code).toBe(40003);
    expect(await fingerprint(env.s, 'douyin_product')).toBe(before);
    expect(await auditMaxId(env.s)).toBe(a0);
  });
});
