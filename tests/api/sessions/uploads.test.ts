// @db once
/** The raw routes: s3-file upload / download / delete and the policy import (CSV), with their refusals. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { auditSince, auditMaxId, count, expectFieldError, expectOk, multipart, postForm } from '../business/helpers.js';

let s: TestServer;
let admin: ApiClient;
let outsider: ApiClient;
let shopId: number;
const T = 'intelligent_text';

beforeAll(async () => {
  s = await startServer({ seedDemo: true });
  admin = await s.login();
  outsider = await s.loginWithKeys(['admin_center.admin.permission.audit_logs']);
  shopId = Number((await s.db.query<{ id: number }>(`SELECT id FROM shop ORDER BY id LIMIT 1`)).rows[0].id);
});
afterAll(async () => {
  await s?.close();
});

describe('stored files (operationsTools/fileUpload2S3)', () => {
  it('uploads, lists, downloads and deletes a file; refuses outsiders and empty uploads', async () => {
    const n0 = await count(s, 'stored_file');
    expect((await postForm(outsider, 's3-file/upload', multipart({ name: 'a.txt', data: 'hi' }))).body.code).toBe(40003);
    expectFieldError(await postForm(admin, 's3-file/upload', multipart(null)), 'file');
    expect(await count(s, 'stored_file')).toBe(n0);

    const holder = await s.loginWithKeys([`${T}.text.operations_tools.file_upload`]);
    const a0 = await auditMaxId(s);
    const up = await postForm(holder, 's3-file/upload', multipart({ name: 'notes 1.txt', data: 'hello world', type: 'text/plain' }));
    expectOk(up, 'upload');
    expect(up.body.data.size).toBe(11);
    expect((await auditSince(s, a0)).some((x) => x.action === 'upload' && x.resource === 'stored_file')).toBe(true);

    const res = await fetch(holder.url('s3-file/download'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'admin-token': holder.token!, cookie: [...holder.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      body: JSON.stringify({ id: up.body.data.id }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello world');
    expect(res.headers.get('content-disposition')).toContain('notes%201.txt');

    const bad = await holder.post('s3-file/download', { id: 'x' });
    expectFieldError(bad, 'id');
    const del = await holder.post('s3-file/delete', { id: up.body.data.id });
    expectOk(del, 'delete');
    expect(await count(s, 'stored_file')).toBe(n0);
  });
});

describe('policy import (operationsTools/policyImport)', () => {
  const csv = 'title,content,channel\nGift wrap,We offer free gift wrap.,chat\n,missing title,chat\nInvoices,Invoices are emailed.,fax\n';

  it('imports valid rows into the shop, reports the others, logs and audits', async () => {
    const p0 = await count(s, 'policy');
    expect((await postForm(outsider, 'policy-import/import', multipart({ name: 'p.csv', data: csv }, { shop_id: String(shopId) }))).body.code).toBe(40003);
    expectFieldError(await postForm(admin, 'policy-import/import', multipart({ name: 'p.csv', data: csv }, {})), 'shop_id');
    expectFieldError(await postForm(admin, 'policy-import/import', multipart({ name: 'p.csv', data: 'a,b\n1,2\n' }, { shop_id: String(shopId) })), 'file');
    expect(await count(s, 'policy')).toBe(p0);

    const holder = await s.loginWithKeys([`${T}.text.operations_tools.policy_import`]);
    const a0 = await auditMaxId(s);
    const r = await postForm(holder, 'policy-import/import', multipart({ name: 'p.csv', data: csv }, { shop_id: String(shopId) }));
    expectOk(r, 'import');
    expect(r.body.data).toMatchObject({ total: 3, imported: 1, failed: 2 });
    expect(await count(s, 'policy')).toBe(p0 + 1);
    expect((await auditSince(s, a0)).some((x) => x.action === 'import' && x.resource === 'policy')).toBe(true);
    const log = await holder.get('policy-import/list', { shop_id: shopId });
    expect(log.body.data.list[0]).toMatchObject({ file_name: 'p.csv', imported: 1 });
  });
});

describe('session category import (shop/sessionCategory)', () => {
  it('imports items, creates missing groups, skips existing items, audits; refuses bad files', async () => {
    const n0 = await count(s, 'session_category_item');
    const csv = 'group,name,keywords\nAfter-sales,Return,return\nWarranty,Repair,repair fix\nWarranty,,x\n';
    expect((await postForm(outsider, 'session-category/item/import', multipart({ name: 'c.csv', data: csv }))).body.code).toBe(40003);
    expectFieldError(await postForm(admin, 'session-category/item/import', multipart({ name: 'c.csv', data: 'name\nx\n' })), 'file');
    expectFieldError(await postForm(admin, 'session-category/item/import', multipart({ name: 'c.txt', data: csv })), 'file');
    expect(await count(s, 'session_category_item')).toBe(n0);

    const holder = await s.loginWithKeys([`${T}.text.shop.session_category`]);
    const a0 = await auditMaxId(s);
    const r = await postForm(holder, 'session-category/item/import', multipart({ name: 'c.csv', data: csv }));
    expectOk(r, 'import');
    expect(r.body.data).toMatchObject({ total: 3, imported: 1, skipped: 1, failed: 1, groups_created: 1 });
    expect(await count(s, 'session_category_item')).toBe(n0 + 1);
    expect((await auditSince(s, a0)).some((x) => x.action === 'import' && x.resource === 'session_category_item')).toBe(true);
  });
});
