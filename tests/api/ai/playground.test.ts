// @db once
/**
 * `POST prompt/playground-stream`: Server-Sent Events (start, delta…, done) over the POST reply;
 * refused input is a plain envelope before any event. With no model server the built-in
 * responder answers from the shop's knowledge and cites it (labelled, never "simulation").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSse, type PlaygroundEvent } from '../../../src/screens/playground/stream.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.js';

let s: TestServer;
let admin: ApiClient;
let shopId: number;
let returnPolicy: number;
let fake: FakeOpenAI;

async function stream(c: ApiClient, body: Record<string, unknown>): Promise<{ type: string; events: PlaygroundEvent[]; json: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  if (c.token) headers['admin-token'] = c.token;
  const res = await fetch(c.url('prompt/playground-stream'), { method: 'POST', headers, body: JSON.stringify(body) });
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (!type.startsWith('text/event-stream')) return { type, events: [], json: JSON.parse(text) };
  return { type, events: parseSse(text).events, json: null };
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  s = await startServer();
  admin = await s.login();
  shopId = (await s.db.query<{ id: number }>(`INSERT INTO shop (name, type, link) VALUES ('Playground shop', 1, 'https://p.example.com') RETURNING id`)).rows[0].id;
  const p = await s.db.query<{ id: number }>(
    `INSERT INTO policy (shop_id, title, content, source_type, channel) VALUES
       ($1, 'Return policy', 'Items can be returned within 14 days of delivery, unused and in their original packaging.', 1, 'chat'),
       ($1, 'Shipping', 'Orders ship within 2 business days by DHL; delivery takes 3 to 5 days.', 1, 'chat'),
       ($1, '退货政策', '收货后 14 天内可以无理由退货，商品需未使用且包装完好。', 1, 'chat')
     RETURNING id`,
    [shopId],
  );
  returnPolicy = p.rows[0].id;
});

afterAll(async () => {
  await s?.close();
  await fake?.close();
});

describe('playground stream', () => {
  it('answers with the built-in responder, streamed as SSE, citing the shop policy', async () => {
    const r = await stream(admin, { shop_id: shopId, message: 'How many days do I have to return an item?' });
    expect(r.type).toMatch(/^text\/event-stream/);
    const kinds = r.events.map((e) => e.event);
    expect(kinds[0]).toBe('start');
    expect(kinds.at(-1)).toBe('done');
    expect(kinds).toContain('delta');
    expect(r.events[0].data).toEqual({ responder: 'builtin', server: null });
    const done = r.events.at(-1)!.data as any;
    const deltas = r.events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text).join('');
    expect(deltas).toBe(done.text);
    expect(done.responder).toBe('builtin');
    expect(done.text).toContain('14 days');
    expect(done.text).not.toMatch(/simulat/i);
    expect(done.citations[0]).toMatchObject({ source_id: returnPolicy, title: 'Return policy' });
    expect(typeof done.citations[0].score).toBe('number');
    expect(done.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('the built-in responder reads a follow-up by the previous question (issue 21)', async () => {
    const q = 'and how long does that take?';
    // alone it names nothing the knowledge holds: declined
    const alone = (await stream(admin, { shop_id: shopId, message: q })).events.at(-1)!.data as any;
    expect(alone.citations).toEqual([]);
    const history = [
      { role: 'user', content: 'When will my order ship?' },
      { role: 'assistant', content: 'Within 2 business days.' },
    ];
    const done = (await stream(admin, { shop_id: shopId, message: q, history })).events.at(-1)!.data as any;
    expect(done.citations[0]).toMatchObject({ title: 'Shipping' });
    expect(done.text).toContain('3 to 5 days');
    // the trace says what was searched: the previous question with the follow-up
    const trace = await admin.ok<any>('GET', 'ai-trace/detail', { id: done.trace_id });
    expect(JSON.stringify(trace)).toContain('When will my order ship?\\nand how long does that take?');
    // a follow-up the knowledge answers alone is searched alone
    const own = (await stream(admin, { shop_id: shopId, message: 'Can I return it?', history })).events.at(-1)!.data as any;
    expect(own.citations[0]).toMatchObject({ title: 'Return policy' });
  });

  it('with a model server: the model reply streams piece by piece, with the retrieved knowledge, tokens and the call logged', async () => {
    const m = await admin.ok('POST', 'config/model-server/create', { name: 'stand-in', model: 'ok-model', endpoint: fake.baseUrl });
    const r = await stream(admin, { shop_id: shopId, message: 'How many days do I have to return an item?', model_server_id: m.id });
    expect(r.events[0].data).toEqual({ responder: 'model', server: { id: m.id, name: 'stand-in', model: 'ok-model' } });
    const deltas = r.events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text);
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    const done = r.events.at(-1)!.data as any;
    expect(done).toMatchObject({ responder: 'model', text: 'answer from model', model: 'ok-model', tokens: { prompt: 11, completion: 3 } });
    expect(deltas.join('')).toBe(done.text);
    expect(done.citations.map((c: { source_id: number }) => c.source_id)).toContain(returnPolicy);
    // the model was given the retrieved policy in its prompt
    const sent = JSON.stringify(fake.requests.at(-1)!.body.messages);
    expect(sent).toContain('14 days of delivery');
    const calls = await admin.ok('GET', 'model-call/list', { model_server_id: m.id });
    expect(calls.list[0]).toMatchObject({ outcome: 'ok', stream: true, shop_id: shopId, total_tokens: 14 });
    await admin.ok('POST', 'config/model-server/update', { id: m.id, enabled: false });
  });

  it('closing the connection cancels the model call (recorded as aborted)', async () => {
    const m = await admin.ok('POST', 'config/model-server/create', { name: 'slow', model: 'slow-model', endpoint: fake.baseUrl, timeout_ms: 30000 });
    const ctl = new AbortController();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'admin-token': admin.token!,
      cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    const res = await fetch(admin.url('prompt/playground-stream'), {
      method: 'POST',
      headers,
      body: JSON.stringify({ shop_id: shopId, message: 'Return policy?', model_server_id: m.id }),
      signal: ctl.signal,
    });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: start');
    const t0 = Date.now();
    ctl.abort();
    let outcome = '';
    // the stand-in holds the stream open: the call is marked aborted only because the client left
    while (Date.now() - t0 < 60_000 && outcome !== 'aborted') {
      await new Promise((r) => setTimeout(r, 100));
      outcome = (await admin.ok('GET', 'model-call/list', { model_server_id: m.id })).list[0]?.outcome ?? '';
    }
    expect(outcome).toBe('aborted');
    await admin.ok('POST', 'config/model-server/update', { id: m.id, enabled: false });
  });

  it('refuses bad input, unknown references and missing permission with an envelope (no stream)', async () => {
    const empty = await stream(admin, { shop_id: shopId, message: '   ' });
    expect(empty.json.code).toBe(40001);
    const noShop = await stream(admin, { shop_id: 999999, message: 'hi' });
    expect(noShop.json).toMatchObject({ code: 40001 });
    expect(noShop.json.msg).toContain('shop_id');
    const extra = await stream(admin, { shop_id: shopId, message: 'hi', temperature: 3 });
    expect(extra.json.code).toBe(40001);
    const server = await admin.ok('POST', 'config/model-server/create', { name: 'off', model: 'm', endpoint: 'http://127.0.0.1:9/v1', enabled: false });
    const off = await stream(admin, { shop_id: shopId, message: 'hi', model_server_id: server.id });
    expect(off.json.code).toBe(40001);
    expect(off.json.msg).toContain('disabled');
    const other = await s.loginWithKeys(['intelligent_text.text.shop.list']);
    expect((await stream(other, { shop_id: shopId, message: 'hi' })).json.code).toBe(40003);
    const anon = s.anon();
    expect((await stream(anon, { shop_id: shopId, message: 'hi' })).json.code).toBe(20001);
  });

  it('playground-options lists assistants, prompts and enabled model servers (id and name only)', async () => {
    const on = await admin.ok('POST', 'config/model-server/create', { name: 'on', model: 'm1', endpoint: 'http://127.0.0.1:9/v1' });
    const p = await admin.ok('POST', 'prompt/create', { name: 'With server', content: '{{question}}', model_server_id: on.id });
    expect(p.model_server_name).toBe('on');
    const o = await admin.ok('GET', 'prompt/playground-options');
    expect(o.model_servers).toEqual([{ id: on.id, name: 'on (m1)' }]); // disabled ones left out
    expect(o.prompts[0]).toEqual({ id: p.id, name: 'With server', model_server_id: on.id });
    const bad = await admin.post('prompt/create', { name: 'x', content: 'y', model_server_id: 999999 });
    expect(bad.body.code).toBe(40001);
  });
});
