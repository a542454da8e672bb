// @db both — imports upsert rows in transactions
/**
 * CSV / XLSX import of orders and chat sessions on their pages (issue 14): rows become ingestion
 * records (same checks, same upsert by shop and external id), so importing a file twice or
 * importing what the ingestion API already sent makes no duplicate; a bad row is rejected naming
 * its field while the good rows land; a file that fails as a whole is 40001 on `file`; the
 * import key is enforced; one audit row per import; the template has the localized headers.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';
import { expectFieldError, multipart, postForm } from './business/helpers.js';
import { zip } from '../../server/ai/parse/test-fixtures.js';

let s: TestServer;
let admin: ApiClient;
let shopId: number;

const ORDER_KEY = 'intelligent_text.text.order.shopify.import';
const SESSION_KEY = 'intelligent_text.text.session.chat.import';
const ORDER_HEAD = 'external_id,shop_id,name,email,customer_name,amount,currency,financial_status,fulfillment_status,created_at';

const count = async (sql: string, params: unknown[] = []): Promise<number> => Number((await s.db.query<{ n: number }>(sql, params)).rows[0].n);
const importFile = (c: ApiClient, path: string, name: string, data: Buffer | string, fields: Record<string, string> = {}) =>
  postForm(c, path, multipart({ name, data }, fields));

beforeAll(async () => {
  s = await startServer({ config: { workers: 0 } as never });
  admin = await s.login();
  shopId = (await s.db.query<{ id: number }>("INSERT INTO shop (name, type) VALUES ('import shop', 1) RETURNING id")).rows[0].id;
});
afterAll(async () => {
  await s?.close();
});

describe('order import', () => {
  const csv = () =>
    [
      ORDER_HEAD,
      `csv-1,${shopId},#1001,a@example.com,Ann,12.50,EUR,paid,unfulfilled,2026-03-01 10:00:00`,
      `csv-2,${shopId},#1002,b@example.com,Bob,20,USD,pending,fulfilled,2026-03-02T08:00:00Z`,
      `csv-3,${shopId},#1003,not-an-email,Cy,abc,USD,paid,unfulfilled,2026-03-03`,
    ].join('\n');

  it('a CSV creates its good rows and rejects the bad one naming its fields; the same file again creates nothing', async () => {
    const r = await importFile(admin, 'order/import', 'orders.csv', csv());
    expect(r.status).toBe(200);
    expect(r.body.code, JSON.stringify(r.body)).toBe(10000);
    const d = r.body.data;
    expect(d).toMatchObject({ total: 3, created: 2, updated: 0, unchanged: 0, rejected: 1 });
    expect(d.rows.map((x: { row: number; status: string }) => [x.row, x.status])).toEqual([[2, 'created'], [3, 'created'], [4, 'rejected']]);
    const bad = d.rows[2];
    expect(bad.external_id).toBe('csv-3');
    expect(bad.errors.map((e: { field: string }) => e.field).sort()).toEqual(['amount', 'email']);
    expect(await count(`SELECT count(*)::int AS n FROM shop_order WHERE shop_id = $1`, [shopId])).toBe(2);

    const again = await importFile(admin, 'order/import', 'orders.csv', csv());
    expect(again.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 2, rejected: 1 });
    expect(await count(`SELECT count(*)::int AS n FROM shop_order WHERE shop_id = $1`, [shopId])).toBe(2);

    const audit = await s.db.query<{ after: unknown }>(`SELECT after FROM audit_logs WHERE action = 'import' AND resource = 'shop_order' ORDER BY id`);
    expect(audit.rows.length).toBe(2);
  });

  it('an XLSX with localized headers and the shop from the form lands, and meets the same rows by external id', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('orders');
    ws.addRow(['外部订单ID', '订单号', '邮箱', '金额', '支付状态', '发货状态', '下单时间']);
    ws.addRow(['csv-1', '#1001', 'a@example.com', 99, 'paid', 'fulfilled', '2026-03-01 10:00:00']);
    ws.addRow(['xlsx-1', '#2001', 'x@example.com', 5.25, 'paid', 'unfulfilled', '2026-03-05 09:30:00']);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const r = await importFile(admin, 'order/import', 'orders.xlsx', data, { shop_id: String(shopId) });
    expect(r.body.code, JSON.stringify(r.body)).toBe(10000);
    expect(r.body.data).toMatchObject({ total: 2, created: 1, updated: 1, rejected: 0 });
    expect(await count(`SELECT count(*)::int AS n FROM shop_order WHERE shop_id = $1`, [shopId])).toBe(3);
    const row = await s.db.query<{ amount: string; fulfillment_status: string }>(`SELECT amount, fulfillment_status FROM shop_order WHERE external_id = 'csv-1'`);
    expect(Number(row.rows[0].amount)).toBe(99);
    expect(row.rows[0].fulfillment_status).toBe('fulfilled');
  });

  it('missing and unknown columns are 40001 on file naming them; bad files never 500', async () => {
    const missing = await importFile(admin, 'order/import', 'o.csv', `external_id,shop_id,name\nx,${shopId},#1\n`);
    expectFieldError(missing, 'file');
    expect(missing.body.msg + JSON.stringify(missing.body.data)).toMatch(/email.*amount.*financial_status.*fulfillment_status.*created_at/);
    const unknown = await importFile(admin, 'order/import', 'o.csv', `${ORDER_HEAD},colour\ne,${shopId},#1,a@example.com,,1,USD,paid,unfulfilled,2026-03-01,red\n`);
    expectFieldError(unknown, 'file');
    expect(JSON.stringify(unknown.body.data)).toContain('colour');
    const bad: Array<[string, Buffer | string]> = [
      ['o.csv', ''],
      ['o.csv', `${ORDER_HEAD}\n`],
      ['o.txt', 'hello'],
      ['o.xlsx', 'not a zip at all'],
      ['o.csv', 'a,b\n1,"2\n3,4\n'],
    ];
    for (const [name, data] of bad) {
      const r = await importFile(admin, 'order/import', name, data);
      expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
      expectFieldError(r, 'file');
    }
    const noFile = await postForm(admin, 'order/import', multipart(null, { shop_id: String(shopId) }));
    expectFieldError(noFile, 'file');
    const notMultipart = await admin.post('order/import', { file: 'x' });
    expect(notMultipart.status).toBeLessThan(500);
    expect(notMultipart.body.code).toBe(40001);
  });

  it('an XLSX bomb is 40001 on file and writes nothing', async () => {
    const bomb = await zip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'xl/worksheets/sheet1.xml', zeros: 200 * 1024 * 1024, fill: 0x20 },
    ]);
    const before = await count(`SELECT count(*)::int AS n FROM shop_order`);
    const r = await importFile(admin, 'order/import', 'bomb.xlsx', bomb, { shop_id: String(shopId) });
    expectFieldError(r, 'file');
    expect(r.body.msg).toContain('bomb');
    expect(await count(`SELECT count(*)::int AS n FROM shop_order`)).toBe(before);
  });

  it('an order the ingestion API sent and the same order in a file are one row', async () => {
    const token = (await admin.post('service-token/create', { name: 'import interop', scopes: ['orders'] })).body.data.token as string;
    const rec = {
      external_id: 'api-1', shop_id: shopId, name: '#3001', email: 'api@example.com', customer_name: 'Api',
      amount: 7, currency: 'USD', financial_status: 'paid', fulfillment_status: 'unfulfilled', created_at: '2026-03-06 12:00:00',
    };
    const sent = await s.anon().request('POST', '/api/ingest/v1/orders', { body: { records: [rec] }, headers: { authorization: `Bearer ${token}` } });
    expect(sent.body.data.created, JSON.stringify(sent.body)).toBe(1);
    const file = `${ORDER_HEAD}\napi-1,${shopId},#3001,api@example.com,Api,7,USD,paid,unfulfilled,2026-03-06 12:00:00\n`;
    const r = await importFile(admin, 'order/import', 'same.csv', file);
    expect(r.body.data).toMatchObject({ created: 0, unchanged: 1 });
    expect(await count(`SELECT count(*)::int AS n FROM shop_order WHERE external_id = 'api-1'`)).toBe(1);
  });

  it('more rows than the limit is 40001 without reading the rest', async () => {
    const line = `e,${shopId},#1,a@example.com,,1,USD,paid,unfulfilled,2026-03-01\n`;
    const r = await importFile(admin, 'order/import', 'big.csv', ORDER_HEAD + '\n' + line.repeat(10_001));
    expectFieldError(r, 'file');
    expect(r.body.msg + JSON.stringify(r.body.data)).toContain('10000');
  });

  it('the template has the headers in the caller language', async () => {
    const zh = await admin.request('GET', 'order/import-template', { headers: { 'x-lang': 'zh-CN' } });
    expect(zh.status).toBe(200);
    expect(zh.headers.get('content-type')).toContain('text/csv');
    expect(zh.body.msg).toContain('外部订单ID,店铺ID,订单号');
    const en = await admin.request('GET', 'order/import-template', { headers: { 'x-lang': 'en-US' } });
    expect(en.body.msg).toContain('External ID,Shop ID,Order name');
  });

  it('needs the import key', async () => {
    const viewer = await s.loginWithKeys(['intelligent_text.text.order.shopify']);
    const r = await importFile(viewer, 'order/import', 'orders.csv', csv());
    expect(r.body.code).toBe(40003);
    expect((await viewer.request('GET', 'order/import-template')).body.code).toBe(40003);
    const importer = await s.loginWithKeys(['intelligent_text.text.order.shopify', ORDER_KEY]);
    const ok = await importFile(importer, 'order/import', 'orders.csv', csv());
    expect(ok.body.code, JSON.stringify(ok.body)).toBe(10000);
  });
});

describe('session import', () => {
  const head = 'external_id,shop_id,customer_name,customer_email,channel,country_code,started_at,msg_type,sender,content,sent_at';
  const csv = () =>
    [
      head,
      `s-1,${shopId},Ann,ann@example.com,web,US,2026-03-01 10:00:00,1,customer,Where is my order?,2026-03-01 10:00:00`,
      `s-1,${shopId},,,,,,1,ai,It ships tomorrow.,2026-03-01 10:00:05`,
      `s-2,${shopId},Bob,,web,DE,2026-03-02 09:00:00,1,customer,Hello,2026-03-02 09:00:00`,
      `s-3,${shopId},Cy,,web,FR,2026-03-03 09:00:00,1,customer,Hi,2026-03-03 09:00:00`,
      `s-3,${shopId},,,,,,99,ai,bad type,2026-03-03 09:00:01`,
    ].join('\n');

  it('rows group into sessions with their messages; a bad message row rejects its session naming the field; twice makes no duplicate', async () => {
    const r = await importFile(admin, 'session/import', 'sessions.csv', csv());
    expect(r.body.code, JSON.stringify(r.body)).toBe(10000);
    const d = r.body.data;
    expect(d).toMatchObject({ total: 5, records: 3, created: 3, rejected: 2 });
    expect(d.rows.map((x: { status: string }) => x.status)).toEqual(['created', 'created', 'created', 'rejected', 'rejected']);
    expect(d.rows[4].errors[0].field).toBe('msg_type');
    const s1 = await s.db.query<{ id: number; message_count: number }>(`SELECT id, message_count FROM chat_session WHERE shop_id = $1 AND external_id = 's-1'`, [shopId]);
    expect(s1.rows[0].message_count).toBe(2);
    expect(await count(`SELECT count(*)::int AS n FROM chat_message WHERE session_id = $1`, [s1.rows[0].id])).toBe(2);

    const again = await importFile(admin, 'session/import', 'sessions.csv', csv());
    expect(again.body.data).toMatchObject({ created: 0, unchanged: 3, rejected: 2 });
    expect(await count(`SELECT count(*)::int AS n FROM chat_session WHERE shop_id = $1`, [shopId])).toBe(2);
  });

  it('an XLSX of messages lands; missing columns are 40001; the key is enforced', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('messages');
    ws.addRow(['Session external ID', 'Shop ID', 'Started at', 'Message type', 'Content', 'Sent at']);
    ws.addRow(['x-1', shopId, '2026-03-04 08:00:00', 1, 'hi', '2026-03-04 08:00:00']);
    ws.addRow(['x-1', shopId, '', 1, 'hello back', '2026-03-04 08:00:02']);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const r = await importFile(admin, 'session/import', 'm.xlsx', data);
    expect(r.body.code, JSON.stringify(r.body)).toBe(10000);
    expect(r.body.data).toMatchObject({ total: 2, records: 1, created: 2 });

    const missing = await importFile(admin, 'session/import', 'm.csv', `external_id,content\nx,hi\n`);
    expectFieldError(missing, 'file');
    expect(missing.body.msg + JSON.stringify(missing.body.data)).toMatch(/shop_id.*started_at.*msg_type.*sent_at/);

    const viewer = await s.loginWithKeys(['intelligent_text.text.session.chat']);
    expect((await importFile(viewer, 'session/import', 'sessions.csv', csv())).body.code).toBe(40003);
    const importer = await s.loginWithKeys([SESSION_KEY]);
    expect((await importFile(importer, 'session/import', 'sessions.csv', csv())).body.code).toBe(10000);
  });
});

describe('mail import', () => {
  const head = 'external_id,shop_id,subject,customer_email,direction_type,from_addr,to_addr,mail_subject,body,is_read,sent_at';
  const csv = () =>
    [
      head,
      `m-1,${shopId},Refund,cu@example.com,1,cu@example.com,shop@example.com,Refund please,Where is my refund?,1,2026-03-01 10:00:00`,
      `m-1,${shopId},,,2,shop@example.com,cu@example.com,Re: Refund please,It is on its way.,0,2026-03-01 11:00:00`,
      `m-2,${shopId},Bad,cu@example.com,1,cu@example.com,shop@example.com,Hi,Hello,2,2026-03-02 10:00:00`,
    ].join('\n');

  it('rows group into threads with their mails; a bad flag is rejected on its row; twice makes no duplicate; the key is enforced', async () => {
    const r = await importFile(admin, 'mail-session/import', 'mails.csv', csv());
    expect(r.body.code, JSON.stringify(r.body)).toBe(10000);
    expect(r.body.data).toMatchObject({ total: 3, records: 2, created: 2, rejected: 1 });
    expect(r.body.data.rows[2].errors[0].field).toBe('is_read');
    const t = await s.db.query<{ id: number; mail_count: number; subject: string }>(`SELECT id, mail_count, subject FROM mail_session WHERE shop_id = $1 AND external_id = 'm-1'`, [shopId]);
    expect(t.rows[0]).toMatchObject({ mail_count: 2, subject: 'Refund' });
    const subjects = await s.db.query<{ subject: string }>(`SELECT subject FROM mail_message WHERE session_id = $1 ORDER BY sent_at`, [t.rows[0].id]);
    expect(subjects.rows.map((x) => x.subject)).toEqual(['Refund please', 'Re: Refund please']);
    const again = await importFile(admin, 'mail-session/import', 'mails.csv', csv());
    expect(again.body.data).toMatchObject({ created: 0, unchanged: 2, rejected: 1 });
    expect(await count(`SELECT count(*)::int AS n FROM mail_session WHERE shop_id = $1`, [shopId])).toBe(1);

    const viewer = await s.loginWithKeys(['intelligent_text.text.session.mail']);
    expect((await importFile(viewer, 'mail-session/import', 'mails.csv', csv())).body.code).toBe(40003);
    const importer = await s.loginWithKeys(['intelligent_text.text.session.mail.import']);
    expect((await importFile(importer, 'mail-session/import', 'mails.csv', csv())).body.code).toBe(10000);
  });
});
