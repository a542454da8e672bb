// @db both — export jobs writing files into the database
/**
 * Large learn-material exports (issue 10): past EXPORT_JOB_ROWS rows the export runs as a job
 * that writes the file into the database with progress, and the file downloads from any
 * instance for 24 hours (engine clock); small exports still stream; a bad filter is a 40001
 * envelope before any byte. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlledClock } from '../../../server/jobs/clock.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { until } from '../jobs/until.js';

const T = 'intelligent_text';
const clock = new ControlledClock('2026-05-01T00:00:00Z');
const ROWS = 25;
let s: TestServer;
let admin: ApiClient;
let shopId: number;

/** a raw POST / GET through the client's session (the export replies with a file or an envelope) */
async function raw(c: ApiClient, method: 'GET' | 'POST', path: string, body?: object, headers: Record<string, string> = {}) {
  const url = new URL(c.url(path));
  if (method === 'GET' && body) for (const [k, v] of Object.entries(body)) url.searchParams.set(k, String(v));
  return fetch(url, {
    method,
    headers: {
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      'admin-token': c.token!,
      cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...headers,
    },
    body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  });
}

beforeAll(async () => {
  s = await startServer({ clock, config: { exportJobRows: 10 } });
  admin = await s.login();
  shopId = Number((await s.db.query<{ id: number }>(`INSERT INTO shop (name, type) VALUES ('Export shop', 1) RETURNING id`)).rows[0].id);
  for (let i = 0; i < ROWS; i++) {
    await s.db.query(
      `INSERT INTO learn_material (shop_id, channel, source_type, subject, question, answer, status) VALUES ($1, $2, 3, $3, $4, $5, $6)`,
      [shopId, i % 5 === 0 ? 'email' : 'chat', `Subject ${i}`, `Question ${i}, with "quotes"\nand a new line`, `=Answer ${i}`, i % 2],
    );
  }
});
afterAll(async () => s?.close());

const exportRow = async (id: number) =>
  (await admin.ok('GET', 'learn-material/export/list', { page_size: 100 })).list.find((e: { id: number }) => e.id === id);

describe('learn-material export', () => {
  it('a small result still streams (no job)', async () => {
    const jobs0 = Number((await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_job`)).rows[0].n);
    const res = await raw(admin, 'POST', 'learn-material/export', { format: 'csv', channel: 'email' });
    expect(res.headers.get('content-type')).toContain('text/csv');
    const text = (await res.text()).replace(/^\uFEFF/, '');
    expect(text.split('\r\n')[0]).toBe('id,shop_id,shop_name,channel,source_type,subject,question,answer,status,ticket_learn,remark,created_at');
    expect(text.match(/\r\n\d+,\d+,/g)).toHaveLength(5);
    expect(Number((await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_job`)).rows[0].n)).toBe(jobs0);
  });

  it('a bad filter is a 40001 envelope before any byte, also when the result would be large', async () => {
    for (const body of [{ format: 'pdf' }, { status: 9 }, { created_at_from: 'yesterday' }, { bogus: 1 }]) {
      const res = await raw(admin, 'POST', 'learn-material/export', body);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect((await res.json()).code).toBe(40001);
    }
  });

  it('a large CSV export runs as a job with progress; its file downloads (localized titles and labels)', async () => {
    const res = await raw(admin, 'POST', 'learn-material/export', { format: 'csv', lang: 'zh-CN' }, { 'x-lang': 'zh-CN' });
    expect(res.headers.get('content-type')).toContain('application/json');
    const env = await res.json();
    expect(env.code).toBe(10000);
    expect(env.data).toMatchObject({ status: 'queued', url: '/intelligent_text/learn/material/exports' });
    // the notice is in the console's language only
    expect(env.data.message).toBe('导出数据较多，已在后台生成，请在导出记录页查看进度并下载');
    const id = env.data.export_id;
    const job = await until(
      async () => (await s.db.query<{ state: string; progress_done: number; progress_total: number; kind: string }>(`SELECT * FROM work_job WHERE id = $1`, [env.data.job_id])).rows[0],
      (j) => j.state === 'done',
    );
    expect(job).toMatchObject({ kind: 'export.learn_material', progress_done: ROWS, progress_total: ROWS });
    const row = await exportRow(id);
    expect(row).toMatchObject({ status: 'done', rows_written: ROWS, rows_total: ROWS, progress: `${ROWS} / ${ROWS}`, percent: 100, created_by_email: 'admin@example.com' });
    // kept for the spec's 24-hour export timeout, on the engine clock
    expect(new Date(row.expires_at).getTime() - new Date(row.finished_at).getTime()).toBe(24 * 3_600_000);
    expect(row.finished_at.startsWith('2026-05-01T00:')).toBe(true);

    const file = await raw(admin, 'GET', 'learn-material/export/download', { id });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    expect(file.headers.get('content-disposition')).toMatch(/attachment; filename="learn-material-20260501T00\d{4}\.csv"/);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(Number(file.headers.get('content-length'))).toBe(bytes.length);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toBe('ID,店铺 ID,店铺,渠道,来源,主题,问题,答案,状态,工单学习,备注,创建时间');
    expect(text.match(/\r\n\d+,\d+,/g)).toHaveLength(ROWS);
    expect(text).toContain(',邮件,工单,');
    expect(text).toContain(",'=Answer"); // CSV injection guard
    // the POST form (the console's download button) sends the same file
    const again = Buffer.from(await (await raw(admin, 'POST', 'learn-material/export/download', { id })).arrayBuffer());
    expect(again.equals(bytes)).toBe(true);
  });

  it('a large XLSX export runs as a job and downloads as a workbook', async () => {
    const env = await (await raw(admin, 'POST', 'learn-material/export', { format: 'xlsx', lang: 'en-US' }, { 'x-lang': 'en-US' })).json();
    expect(env.data.message).toBe('a large export runs in the background: its progress and download link are on the exports page');
    const id = env.data.export_id;
    await until(() => exportRow(id), (e) => e.status === 'done');
    const file = await raw(admin, 'POST', 'learn-material/export/download', { id });
    expect(file.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await file.arrayBuffer());
    const ws = wb.worksheets[0];
    expect(ws.rowCount).toBe(ROWS + 1);
    expect(ws.getRow(1).getCell(3).value).toBe('Shop');
    expect(['Pending', 'Learned']).toContain(ws.getRow(2).getCell(9).value);
  });

  it('only its owner (or a super admin) downloads it, and only for 24 hours', async () => {
    const env = await (await raw(admin, 'POST', 'learn-material/export', { format: 'csv' })).json();
    const id = env.data.export_id;
    await until(() => exportRow(id), (e) => e.status === 'done');
    const other = await s.loginWithKeys([`${T}.text.learn.material.export`]);
    const denied = await raw(other, 'GET', 'learn-material/export/download', { id });
    expect((await denied.json()).code).toBe(40004);
    expect((await other.ok('GET', 'learn-material/export/list')).list).toHaveLength(0);
    const noKey = await s.loginWithKeys([`${T}.text.learn.material`]);
    expect((await (await raw(noKey, 'GET', 'learn-material/export/download', { id })).json()).code).toBe(40003);

    clock.advance(24 * 3_600_000 + 1000);
    const expired = await raw(admin, 'GET', 'learn-material/export/download', { id });
    expect((await expired.json()).code).toBe(40009);
    expect((await exportRow(id)).status).toBe('expired');
  });
});
