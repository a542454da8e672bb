// @db once
/**
 * Image extraction (operationsTools/imageExtraction, learn/pictureAnalyze; issue 13), on a real
 * server and database, with a stand-in OpenAI-compatible server (tests/api/ai/fake-openai.ts):
 * - an image is uploaded to the console and served back byte-identical from a same-origin path,
 *   with its type and nosniff, to the page key holders only;
 * - anything but a png / jpeg / webp / gif (by content: a text file named .png, an SVG), an
 *   oversize, empty or missing file, a malformed body, a long or NUL name: 40001 on `file`,
 *   nothing stored;
 * - without a vision-capable model server, 识别 says so on the row and writes no text (a chat
 *   server that cannot read images is not asked);
 * - with one, an image.extract job sends the image as a data URL and fills extracted_text /
 *   extra_info from the model's JSON reply; the call is a model_call row;
 * - the keys: the picture-analysis key reads but cannot upload or extract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';
import { multipart, postForm } from './business/helpers.js';
import { startFakeOpenAI, VISION_READING, type FakeOpenAI } from './ai/fake-openai.js';
import { until } from './jobs/until.js';

const T = 'intelligent_text.text';
const PAGE = `${T}.operations_tools.image_extraction`;
const ADD = `${T}.operations_tools.image_extraction.add`;
const ANALYZE = `${T}.learn.picture_analyze`;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01 jpeg body'), Buffer.from([0xff, 0xd9])]);
const WEBP = (() => {
  const body = Buffer.concat([Buffer.from('WEBPVP8L'), Buffer.from([0x0a, 0, 0, 0, 0x2f, 0, 0, 0, 0, 0, 0, 0, 0, 0])]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
})();
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

let s: TestServer;
let fake: FakeOpenAI;
let admin: ApiClient;
let editor: ApiClient;
let adder: ApiClient;
let viewer: ApiClient;
let outsider: ApiClient;
let shopId = 0;

const count = async (sql: string, params: unknown[] = []) => Number((await s.db.query<{ n: number }>(sql, params)).rows[0].n);
const files = () => count(`SELECT count(*)::int AS n FROM image_file`);

const upload = (c: ApiClient, file: { name: string; data: Buffer | string; type?: string } | null) => postForm(c, 'image-extraction/upload', multipart(file));

/** GET a path with the client's session; the raw bytes and headers */
async function fetchRaw(c: ApiClient, path: string): Promise<{ status: number; type: string; headers: Headers; bytes: Buffer }> {
  const headers: Record<string, string> = {};
  if (c.cookies.size) headers.cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (c.token) headers['admin-token'] = c.token;
  const res = await fetch(c.url(path), { headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function modelServer(model: string, vision: boolean): Promise<number> {
  const d = await admin.ok('POST', 'config/model-server/create', { name: model, model, endpoint: fake.baseUrl, timeout_ms: 5000, supports_vision: vision });
  return Number(d.id);
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  s = await startServer();
  admin = await s.login();
  editor = await s.loginWithKeys(['intelligent_text', PAGE]);
  adder = await s.loginWithKeys(['intelligent_text', ADD]);
  viewer = await s.loginWithKeys(['intelligent_text', ANALYZE]);
  outsider = await s.loginWithKeys(['intelligent_text', `${T}.learn.todo_preview`]);
  shopId = Number((await s.db.query<{ id: number }>(`INSERT INTO shop (name, type) VALUES ('Image shop', 1) RETURNING id`)).rows[0].id);
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

describe('image upload and serving', () => {
  it('keeps an uploaded png / jpeg / webp / gif and serves it back byte-identical, same-origin, with its type and nosniff', async () => {
    for (const [name, data, type] of [
      ['label.png', PNG, 'image/png'],
      ['photo.JPG', JPEG, 'image/jpeg'],
      ['pic.webp', WEBP, 'image/webp'],
      // the name and the sent type are not what decides
      ['anim.bin', GIF, 'image/gif'],
    ] as const) {
      const r = await upload(adder, { name, data, type: 'application/octet-stream' });
      expect(r.body.code, r.body.msg).toBe(10000);
      expect(r.body.data).toMatchObject({ name, content_type: type, size: data.length });
      expect(r.body.data.url).toBe(`/api/admin/image-extraction/image?id=${r.body.data.id}`);
      for (const c of [admin, editor, adder, viewer]) {
        const got = await fetchRaw(c, r.body.data.url);
        expect(got.status).toBe(200);
        expect(got.type).toBe(type);
        expect(got.headers.get('x-content-type-options')).toBe('nosniff');
        expect(got.bytes.equals(data)).toBe(true);
      }
    }
    const url = (await upload(admin, { name: 'a.png', data: PNG })).body.data.url as string;
    // a signed-in session with a page key, nothing less
    const anon = await fetchRaw(s.anon(), url);
    expect(JSON.parse(anon.bytes.toString()).code).toBe(20001);
    expect(JSON.parse((await fetchRaw(outsider, url)).bytes.toString()).code).toBe(40003);
    expect((await admin.get('image-extraction/image', { id: 999999 })).body.code).toBe(40004);
  });

  it('refuses anything but an image with 40001 on file, and stores nothing', async () => {
    const before = await files();
    const audits = await count(`SELECT count(*)::int AS n FROM audit_logs WHERE resource = 'image_file'`);
    const refused = async (file: Parameters<typeof upload>[1], re: RegExp) => {
      const r = await upload(admin, file);
      expect(r.status, r.body.msg).toBe(200);
      expect(r.body.code, r.body.msg).toBe(40001);
      expect(r.body.data.errors[0].field).toBe('file');
      expect(r.body.msg).toMatch(re);
    };
    await refused({ name: 'text.png', data: 'just some text, not an image', type: 'image/png' }, /png, jpeg, webp or gif/);
    await refused({ name: 'logo.svg', data: SVG, type: 'image/svg+xml' }, /SVG/);
    await refused({ name: 'logo.png', data: SVG, type: 'image/png' }, /SVG/);
    await refused({ name: 'big.png', data: Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024 + 1 - PNG.length)]), type: 'image/png' }, /10 MB/);
    await refused({ name: 'empty.png', data: Buffer.alloc(0), type: 'image/png' }, /upload an image/);
    await refused(null, /upload an image/);
    await refused({ name: `${'n'.repeat(300)}.png`, data: PNG }, /255/);
    await refused({ name: 'nul\u0000.png', data: PNG }, /control/);
    // not multipart at all, and a multipart body cut off in the middle
    const json = await admin.post('image-extraction/upload', { file: 'x' });
    expect(json.body.code).toBe(40001);
    const headers: Record<string, string> = { 'content-type': 'multipart/form-data; boundary=XYZ', 'admin-token': admin.token!, cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    const cut = await fetch(admin.url('image-extraction/upload'), { method: 'POST', headers, body: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG' });
    expect(cut.status).toBe(200);
    expect(((await cut.json()) as { code: number }).code).toBe(40001);
    expect(await files()).toBe(before);
    expect(await count(`SELECT count(*)::int AS n FROM audit_logs WHERE resource = 'image_file'`)).toBe(audits);
  });

  it('a row takes an uploaded image by its path (or another address); a path to no upload is 40001', async () => {
    const up = (await upload(adder, { name: 'tag.png', data: PNG })).body.data;
    const row = await adder.ok('POST', 'image-extraction/create', { shop_id: shopId, title: 'Tag', image_url: up.url });
    expect(row).toMatchObject({ image_url: up.url, image_file_id: up.id, extract_status: 0 });
    const bad = await adder.post('image-extraction/create', { shop_id: shopId, title: 'Gone', image_url: '/api/admin/image-extraction/image?id=987654' });
    expect(bad.body.code).toBe(40001);
    expect(bad.body.data.errors[0].field).toBe('image_url');
    // deleting the last row that shows an upload deletes the upload
    await admin.ok('POST', 'image-extraction/delete', { id: row.id });
    expect(await count(`SELECT count(*)::int AS n FROM image_file WHERE id = $1`, [up.id])).toBe(0);
  });
});

describe('extraction', () => {
  let plainServer = 0;

  it('without a vision model server: the row says so, no text is written, no model is asked', async () => {
    // a chat server that cannot read images is no help
    plainServer = await modelServer('ok-plain', false);
    const asked = fake.requests.length;
    const up = (await upload(admin, { name: 'menu.png', data: PNG })).body.data;
    const row = await admin.ok('POST', 'image-extraction/create', { shop_id: shopId, title: 'Menu', image_url: up.url, extract: true });
    expect(row.extract_status).toBe(4);
    expect(row.extract_error).toMatch(/vision/);
    const again = await editor.ok('POST', 'image-extraction/extract', { id: row.id });
    expect(again.extract_status).toBe(4);
    const zh = await editor.request('POST', 'image-extraction/extract', { body: { id: row.id }, headers: { 'x-lang': 'zh-CN' } });
    expect(zh.body.data.extract_error).toMatch(/视觉模型/);
    const detail = await viewer.ok('GET', 'image-extraction/detail', { id: row.id });
    expect(detail).toMatchObject({ extract_status: 4, extracted_text: '', extra_info: '' });
    expect(await count(`SELECT count(*)::int AS n FROM work_job WHERE kind = 'image.extract'`)).toBe(0);
    expect(fake.requests.length).toBe(asked);
  });

  it('with one: a job sends the image and fills the text and attributes from the reply; the call is recorded', async () => {
    const visionId = await modelServer('vision-shop', true);
    expect(visionId).toBeGreaterThan(plainServer);
    const up = (await upload(admin, { name: 'shirt.png', data: PNG })).body.data;
    const row = await admin.ok('POST', 'image-extraction/create', { shop_id: shopId, title: 'Shirt', image_url: up.url });
    expect(row.extract_status).toBe(0);
    const started = await editor.ok('POST', 'image-extraction/extract', { id: row.id });
    expect(started.extract_status).toBe(1);
    const job = (await s.db.query<{ kind: string; ref_type: string; ref_id: string }>(`SELECT kind, ref_type, ref_id FROM work_job WHERE id = $1`, [started.extract_job_id])).rows[0];
    expect(job).toMatchObject({ kind: 'image.extract', ref_type: 'image_extraction' });
    expect(Number(job.ref_id)).toBe(row.id);
    const done = await until(() => viewer.ok('GET', 'image-extraction/detail', { id: row.id }), (d) => d.extract_status !== 1);
    expect(done.extract_status, done.extract_error).toBe(2);
    expect(done.extracted_text).toBe(VISION_READING.text);
    expect(done.extra_info).toContain('Product / 商品: shop T-shirt');
    expect(done.extra_info).toContain('Size / 尺码: M');
    expect(done.extra_info).toContain('Colour / 颜色: red');
    expect(done.extra_info).toContain('Price / 价格: ¥99');
    expect(done.extra_info).toContain('sleeve: short');
    expect(done.extra_info).not.toContain('Brand'); // null: not shown in the image
    expect(done.attributes).toMatchObject({ product: 'shop T-shirt', size: 'M', colour: 'red', price: '¥99', sleeve: 'short' });
    expect(done.extract_model).toBe('vision-shop (vision-shop)');
    expect(done.extracted_at).toBeTruthy();
    // the image went to the vision server as a data URL of the uploaded bytes
    const sent = fake.requests.filter((r) => r.body.model === 'vision-shop').at(-1)!;
    const parts = sent.body.messages.at(-1).content as Array<{ type: string; image_url?: { url: string } }>;
    const url = parts.find((p) => p.type === 'image_url')!.image_url!.url;
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(url.split(',')[1], 'base64').equals(PNG)).toBe(true);
    expect(fake.requests.some((r) => r.body.model === 'ok-plain')).toBe(false);
    const calls = await s.db.query<Record<string, unknown>>(`SELECT * FROM model_call WHERE model_server_id = $1`, [visionId]);
    expect(calls.rows).toHaveLength(1);
    expect(calls.rows[0]).toMatchObject({ kind: 'chat', model: 'vision-shop', outcome: 'ok', prompt_tokens: 812, completion_tokens: 64, total_tokens: 876, shop_id: shopId });
    expect(Number(calls.rows[0].latency_ms)).toBeGreaterThanOrEqual(0);
    // the model-call log shows it like any gateway call
    const log = await admin.ok('GET', 'model-call/list', { model_server_id: visionId });
    expect(log.list[0]).toMatchObject({ outcome: 'ok', total_tokens: 876 });
  });

  it('extract after upload: create with extract queues the job at once (the add key may)', async () => {
    const up = (await upload(adder, { name: 'size-chart.gif', data: GIF })).body.data;
    const row = await adder.ok('POST', 'image-extraction/create', { shop_id: shopId, title: 'Size chart', image_url: up.url, extract: true });
    expect(row.extract_status).toBe(1);
    const done = await until(() => admin.ok('GET', 'image-extraction/detail', { id: row.id }), (d) => d.extract_status !== 1);
    expect(done.extract_status).toBe(2);
    expect(done.extracted_text).toBe(VISION_READING.text);
  });

  it('an image at an outside address cannot be read: failed, with the reason', async () => {
    const row = await admin.ok('POST', 'image-extraction/create', { shop_id: shopId, title: 'Outside', image_url: 'https://example.com/x.png', extract: true });
    expect(row.extract_status).toBe(3);
    expect(row.extract_error).toMatch(/upload/);
    expect(row.extracted_text).toBe('');
  });

  it('a model that fails: failed with the reason, no text written', async () => {
    await s.db.query(`UPDATE config_model_server SET enabled = false WHERE supports_vision`);
    await modelServer('error-eyes', true);
    const up = (await upload(admin, { name: 'x.png', data: PNG })).body.data;
    const row = await admin.ok('POST', 'image-extraction/create', { shop_id: shopId, title: 'Broken', image_url: up.url, extract: true });
    const done = await until(() => admin.ok('GET', 'image-extraction/detail', { id: row.id }), (d) => d.extract_status !== 1, 40_000);
    expect(done.extract_status).toBe(3);
    expect(done.extract_error).toMatch(/error-eyes.*HTTP 500/);
    expect(done.extracted_text).toBe('');
  });
});

describe('permission keys', () => {
  it('the picture-analysis key reads rows and images but cannot upload, create or extract', async () => {
    const up = (await upload(admin, { name: 'p.png', data: PNG })).body.data;
    const row = await admin.ok('POST', 'image-extraction/create', { shop_id: shopId, title: 'Keys', image_url: up.url });
    const before = await files();
    expect((await upload(viewer, { name: 'v.png', data: PNG })).body.code).toBe(40003);
    expect((await viewer.post('image-extraction/extract', { id: row.id })).body.code).toBe(40003);
    expect((await viewer.post('image-extraction/create', { shop_id: shopId, title: 'x', image_url: up.url })).body.code).toBe(40003);
    expect((await viewer.ok('GET', 'image-extraction/detail', { id: row.id })).image_url).toBe(up.url);
    expect((await fetchRaw(viewer, up.url)).status).toBe(200);
    // the add key uploads and creates, but 识别 of an existing row is the page key's
    expect((await adder.post('image-extraction/extract', { id: row.id })).body.code).toBe(40003);
    expect((await upload(outsider, { name: 'o.png', data: PNG })).body.code).toBe(40003);
    expect(await files()).toBe(before);
    expect(await count(`SELECT count(*)::int AS n FROM work_job WHERE ref_type = 'image_extraction' AND ref_id = $1`, [row.id])).toBe(0);
  });
});
