// @db both — traces are written beside model calls and swept by time (engine-dependent SQL on jsonb and timestamps)
/**
 * Every answer traced, costed and sent with its sampling settings (issue 21), against a small
 * OpenAI-compatible server the test starts (fake-openai.ts):
 * - the assistant's temperature, top_p and max tokens arrive at the model server;
 * - the playground's first event names the server that answers, and a strategy whose first
 *   server fails names the fallback server as it takes over; the result records it;
 * - one trace holds every step of one answer: the question, the hits with their scores, the
 *   decision with the deciding hit's confidence and five signals (equal to hit testing's), the
 *   prompt sent, the completion, each attempt, tokens, latency and cost at the server's prices;
 * - keys never reach a trace; traces older than the retention are swept;
 * - the audit log shows max_tokens as the number it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSse, type PlaygroundEvent } from '../../../src/screens/playground/stream.js';
import { sweepTraces } from '../../../server/ai/trace.js';
import { expectFieldError } from '../business/helpers.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.js';

let s: TestServer;
let admin: ApiClient;
let fake: FakeOpenAI;
let shopId: number;
let okServer: number;
let brokenServer: number;
const KEY = 'sk-trace-secret-0123456789abcdef';

async function stream(body: Record<string, unknown>): Promise<PlaygroundEvent[]> {
  const headers: Record<string, string> = { 'content-type': 'application/json', cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  if (admin.token) headers['admin-token'] = admin.token;
  const res = await fetch(admin.url('prompt/playground-stream'), { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  expect(res.headers.get('content-type') ?? '', text).toMatch(/^text\/event-stream/);
  return parseSse(text).events;
}
const done = (events: PlaygroundEvent[]) => events.find((e) => e.event === 'done')!.data as any;

/**
 * A trace's decision equals what hit testing reports for the same question and answer path: the
 * decision, and the deciding row's relevance and signals (the row of that rank among the answer's
 * candidates). Returns hit testing's reply.
 */
async function expectSameDecision(query: string, dec: any, responder: 'builtin' | 'model' = 'model', shop = shopId): Promise<any> {
  const ht = await admin.ok('POST', 'knowledge/hit-test', { query, shop_id: shop, channel: 'chat', responder });
  const { responder: path, per_source: perSource, ...decision } = ht.decision;
  expect({ path, perSource }).toEqual({ path: responder, perSource: responder === 'model' ? 2 : 1 });
  expect(dec).toEqual(decision);
  if (dec.rank === null) return ht;
  const row = ht.list.find((h: any) => h.answer_rank === dec.rank);
  expect(row.relevance).toBe(dec.confidence);
  expect(Object.fromEntries(Object.keys(dec.signals).map((k) => [k, row[k]]))).toEqual(dec.signals);
  return ht;
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  s = await startServer();
  admin = await s.login();
  shopId = (await admin.ok('POST', 'shop/create', { name: 'Trace shop', type: 1 })).id;
  await admin.ok('POST', 'shop/policy/create', {
    shop_id: shopId,
    title: 'Return policy',
    content: 'Items can be returned within 14 days of delivery, unused and in their original packaging.',
    source_type: 1,
    channel: 'chat',
    status: 1,
  });
  // priced: 2 per million prompt tokens, 10 per million completion tokens
  okServer = (await admin.ok('POST', 'config/model-server/create', { name: 'Priced stand-in', model: 'ok-priced', endpoint: fake.baseUrl, api_key: KEY, price_input: 2, price_output: 10 })).id;
  brokenServer = (await admin.ok('POST', 'config/model-server/create', { name: 'Broken stand-in', model: 'error-primary', endpoint: fake.baseUrl, api_key: KEY })).id;
});

afterAll(async () => {
  await s?.close();
  await fake?.close();
});

describe('sampling settings', () => {
  it("the assistant's temperature, top_p and max tokens are sent to the model server", async () => {
    const a = await admin.ok('POST', 'chat/assistant/create', {
      name: 'Sampling assistant', model: 'gpt-4o', prompt: 'Answer from {{knowledge}}', shop_id: shopId, model_server_id: okServer, temperature: 0.3, top_p: 0.9, max_tokens: 77,
    });
    const before = fake.requests.length;
    const d = done(await stream({ shop_id: shopId, message: 'Can I return an item?', assistant_id: a.id }));
    expect(d.responder).toBe('model');
    const sent = fake.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'))!.body;
    expect(sent).toMatchObject({ model: 'ok-priced', temperature: 0.3, top_p: 0.9, max_tokens: 77 });
    expect(d.sampling).toEqual({ temperature: 0.3, top_p: 0.9, max_tokens: 77 });
    // the playground's own values win over the assistant's
    const before2 = fake.requests.length;
    await stream({ shop_id: shopId, message: 'Can I return an item?', assistant_id: a.id, temperature: 1.1, max_tokens: 12 });
    expect(fake.requests.slice(before2).find((r) => r.path.endsWith('/chat/completions'))!.body).toMatchObject({ temperature: 1.1, top_p: 0.9, max_tokens: 12 });
  });

  it("the assistant form's own score threshold and top-k are kept, decide its answers (the trace says so), and are refused out of range", async () => {
    const a = await admin.ok('POST', 'chat/assistant/create', {
      name: 'Retrieval assistant', model: 'gpt-4o', prompt: 'Answer from {{knowledge}}', shop_id: shopId, score_threshold: 0.35, top_k: 4,
    });
    expect(await admin.ok('GET', 'chat/assistant/info', { id: a.id })).toMatchObject({ score_threshold: 0.35, top_k: 4 });
    const d = done(await stream({ shop_id: shopId, message: 'Can I return an item?', assistant_id: a.id }));
    const t = await admin.ok('GET', 'ai-trace/detail', { id: d.trace_id });
    expect(t.retrieval.decision).toMatchObject({ threshold: 0.35, top_k: 4, source: 'assistant' });
    // emptied: the knowledge base's settings again
    await admin.ok('POST', 'chat/assistant/update', { id: a.id, score_threshold: null, top_k: null });
    expect(await admin.ok('GET', 'chat/assistant/info', { id: a.id })).toMatchObject({ score_threshold: null, top_k: null });
    const bad = await admin.post('chat/assistant/update', { id: a.id, score_threshold: 1.5 });
    expect(bad.body.code).toBe(40001);
    expect(JSON.stringify(bad.body.data)).toContain('score_threshold');
    const badK = await admin.post('chat/assistant/update', { id: a.id, top_k: 21 });
    expect(JSON.stringify(badK.body.data)).toContain('top_k');
  });

  it('the audit log shows max_tokens as the number it is, and still hides the key', async () => {
    await admin.ok('POST', 'config/model-server/update', { id: okServer, max_tokens: 2048 });
    const r = await s.db.query<{ after: Record<string, unknown> }>(
      `SELECT after FROM audit_logs WHERE resource = 'config_model_server' AND target_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(okServer)],
    );
    expect(r.rows[0].after.max_tokens).toBe(2048);
    expect(JSON.stringify(r.rows[0].after)).not.toContain(KEY);
  });
});

describe('the playground names the server that answers', () => {
  it('a chosen server is named by the first event; the answer carries its cost and trace', async () => {
    const events = await stream({ shop_id: shopId, message: 'How many days do I have to return an item?', model_server_id: okServer });
    expect(events[0]).toEqual({ event: 'start', data: { responder: 'model', server: { id: okServer, name: 'Priced stand-in', model: 'ok-priced' } } });
    const d = done(events);
    expect(d).toMatchObject({ responder: 'model', server: { id: okServer }, tokens: { prompt: 11, completion: 3 } });
    // 11 prompt tokens at 2 per million + 3 completion tokens at 10 per million
    expect(d.cost).toBeCloseTo((11 * 2 + 3 * 10) / 1e6, 9);
    expect(d.trace_id).toBeGreaterThan(0);
    // the call log shows each call's cost
    const calls = await admin.ok('GET', 'model-call/list', { model_server_id: okServer, page_size: 1 });
    expect(calls.list[0]).toMatchObject({ outcome: 'ok', prompt_tokens: 11, completion_tokens: 3 });
    expect(calls.list[0].cost).toBeCloseTo(52 / 1e6, 9);
  });

  it('the built-in responder is named as such', async () => {
    const events = await stream({ shop_id: shopId, message: 'How many days do I have to return an item?' });
    expect(events[0]).toEqual({ event: 'start', data: { responder: 'builtin', server: null } });
    expect(done(events).trace_id).toBeGreaterThan(0);
  });

  it("through the shop's strategy: the failing first server is named, then the fallback server that answers", async () => {
    const st = await admin.ok('POST', 'config/model-strategy/create', { name: 'Trace strategy', shop_id: shopId, channel: 'chat', model_server_id: brokenServer, fallback_server_id: okServer });
    try {
      const events = await stream({ shop_id: shopId, message: 'Can I return an item?', use_strategy: true });
      expect(events[0]).toMatchObject({ event: 'start', data: { responder: 'model', server: { id: brokenServer } } });
      expect(events.find((e) => e.event === 'server')).toMatchObject({ data: { server: { id: okServer }, attempt: 2 } });
      const d = done(events);
      expect(d).toMatchObject({ responder: 'model', text: 'answer from priced', server: { id: okServer, name: 'Priced stand-in' } });
      const t = await admin.ok('GET', 'ai-trace/detail', { id: d.trace_id });
      expect(t).toMatchObject({ strategy_id: st.id, server_name: 'Priced stand-in', outcome: 'ok' });
      expect(t.attempts.map((a: { serverId: number; outcome: string }) => [a.serverId, a.outcome])).toEqual([
        [brokenServer, 'error'],
        [okServer, 'ok'],
      ]);
    } finally {
      await admin.ok('POST', 'config/model-strategy/update', { id: st.id, enabled: false });
    }
  });
});

describe('a trace', () => {
  it('holds every step of one answer: question, hits with scores, prompt, completion, attempts, tokens, latency, cost', async () => {
    const d = done(await stream({ shop_id: shopId, message: 'How many days do I have to return an item?', model_server_id: okServer }));
    const t = await admin.ok('GET', 'ai-trace/detail', { id: d.trace_id });
    expect(t).toMatchObject({ kind: 'playground', shop_id: shopId, shop_name: 'Trace shop', channel: 'chat', responder: 'model', outcome: 'ok' });
    expect(t).toMatchObject({ server_name: 'Priced stand-in', model: 'ok-priced', completion: 'answer from priced', tokens_prompt: 11, tokens_completion: 3 });
    expect(t.cost).toBeCloseTo(52 / 1e6, 9);
    expect(t.latency_ms).toBeGreaterThanOrEqual(0);
    // retrieval: the policy with its scores, and the words searched
    const hit = t.retrieval.hits.find((h: { title: string }) => h.title === 'Return policy');
    expect(hit).toMatchObject({ rank: 1, source_type: 'policy' });
    expect(hit.score).toBeGreaterThan(0);
    expect(t.retrieval.terms).toContain('return');
    // the prompt sent, with the knowledge in it; the attempt with its server and cost
    expect(JSON.stringify(t.prompt)).toContain('Return policy');
    expect(t.attempts).toEqual([expect.objectContaining({ serverId: okServer, outcome: 'ok', cost: 52 / 1e6 })]);
    expect(t.sampling).toMatchObject({ max_tokens: 2048 });
    expect(t.score).toBeNull();
    // the decision: the deciding hit's confidence against the threshold and its five signals, as hit testing reports them
    const dec = t.retrieval.decision;
    expect(dec).toMatchObject({ answered: true, rank: 1 });
    expect(Object.keys(dec.signals).sort()).toEqual(['elsewhere_groups', 'elsewhere_words', 'held_groups', 'held_words', 'unsaid_words']);
    expect(dec.confidence).toBeGreaterThanOrEqual(dec.threshold);
    expect(dec.signals.held_groups + dec.signals.held_words).toBeGreaterThan(0);
    expect(hit.relevance).toBe(dec.confidence);
    await expectSameDecision('How many days do I have to return an item?', dec);
  });

  it('records what declined a question nothing answers: the best confidence below the threshold and its signals, as hit testing reports them', async () => {
    // the return policy holds the topic; nothing in the shop says drone or Bitcoin
    const q = 'Can I return a drone in Bitcoin?';
    const d = done(await stream({ shop_id: shopId, message: q, model_server_id: okServer }));
    const dec = (await admin.ok('GET', 'ai-trace/detail', { id: d.trace_id })).retrieval.decision;
    expect(dec).toMatchObject({ answered: false, rank: 1 });
    expect(dec.confidence).toBeLessThan(dec.threshold);
    expect(dec.signals.held_groups).toBeGreaterThan(0);
    expect(dec.signals.unsaid_words).toBeGreaterThan(0);
    await expectSameDecision(q, dec);
  });

  it("equals hit testing's decision when one source has several high-ranking chunks: decided on the answer path's own candidates, more listed", async () => {
    const shop = (await admin.ok('POST', 'shop/create', { name: 'Trace shop, one long policy', type: 1 })).id;
    // four paragraphs of about 450 estimated tokens: four chunks of one policy, each saying the return window and the refund
    const details = (k: string) =>
      [
        `${k} are inspected by our warehouse team when they arrive back, usually on the same working day.`,
        `Please pack ${k.toLowerCase()} carefully, print the label from your order page and keep the courier receipt until the case is closed.`,
        `If ${k.toLowerCase()} arrived damaged or faulty, send a photo to customer service first so that we can arrange a collection at our cost.`,
        `Exchanges for another size or colour of ${k.toLowerCase()} follow the same steps and are shipped as soon as the original is checked.`,
      ].join(' ');
    const part = (k: string) =>
      `${k}: an item can be returned within 30 days of delivery for a refund. ${details(k)} ${details(k)} ${details(k)} The refund for a returned item reaches the original payment within 5 business days of the return arriving.`;
    const content = ['Clothing', 'Electronics', 'Sale items', 'Gifts'].map(part).join('\n\n');
    await admin.ok('POST', 'shop/policy/create', { shop_id: shop, title: 'Returns and refunds', content, source_type: 1, channel: 'chat', status: 1 });
    await admin.ok('POST', 'shop/policy/create', {
      shop_id: shop, title: 'Shipping', content: 'Orders ship within 2 days; delivery takes 3 to 7 days.', source_type: 1, channel: 'chat', status: 1,
    });
    // each kind named in one chunk only: which of them the deciding chunk's signals find elsewhere or unsaid depends on how many chunks of the policy are candidates
    const q = 'How many days do I have to return electronics, gifts or sale items for a refund?';
    // the model's path (two chunks of a source in its prompt) and the built-in responder's (one)
    const model = done(await stream({ shop_id: shop, message: q, model_server_id: okServer }));
    const mDec = (await admin.ok('GET', 'ai-trace/detail', { id: model.trace_id })).retrieval.decision;
    expect(mDec).toMatchObject({ answered: true, rank: 1 });
    const mHt = await expectSameDecision(q, mDec, 'model', shop);
    const builtin = done(await stream({ shop_id: shop, message: q }));
    expect(builtin.responder).toBe('builtin');
    const bDec = (await admin.ok('GET', 'ai-trace/detail', { id: builtin.trace_id })).retrieval.decision;
    expect(bDec).toMatchObject({ answered: true, rank: 1 });
    const bHt = await expectSameDecision(q, bDec, 'builtin', shop);
    // the page still lists three chunks of the long policy; only the answer's candidates carry its rank
    for (const [ht, perSource] of [[mHt, 2], [bHt, 1]] as const) {
      const ofPolicy = ht.list.filter((h: any) => h.title === 'Returns and refunds');
      expect(ofPolicy.length).toBe(3);
      expect(ofPolicy.filter((h: any) => h.answer_rank !== null).length).toBe(perSource);
      expect(ofPolicy.filter((h: any) => h.answer_rank === null).every((h: any) => h.used === 0 && h.verdict === 'beyond_top_k')).toBe(true);
    }
  });

  it('never holds a key, wherever it was typed (the question, and so the prompt)', async () => {
    const q = `Can I return an item? My old key was ${KEY} and sk-another0123456789abcd`;
    const d = done(await stream({ shop_id: shopId, message: q, model_server_id: okServer }));
    const stored = JSON.stringify((await s.db.query(`SELECT * FROM ai_trace WHERE id = $1`, [d.trace_id])).rows[0]);
    expect(stored).not.toContain(KEY);
    expect(stored).not.toContain('sk-another0123456789abcd');
    const t = await admin.ok('GET', 'ai-trace/detail', { id: d.trace_id });
    expect(t.question).toContain('sk-…');
    expect(JSON.stringify(t.prompt)).toContain('sk-…');
  });

  it('a failing server quoting its key back leaves the key out of the trace', async () => {
    const d = done(await stream({ shop_id: shopId, message: 'Can I return an item?', model_server_id: brokenServer }));
    const stored = JSON.stringify((await s.db.query(`SELECT * FROM ai_trace WHERE id = $1`, [d.trace_id])).rows[0]);
    expect(stored).toContain('Broken stand-in');
    expect(stored).not.toContain(KEY);
    const t = await admin.ok('GET', 'ai-trace/detail', { id: d.trace_id });
    expect(t.outcome).toBe('error');
    expect(t.attempts[0]).toMatchObject({ serverId: brokenServer, outcome: 'error' });
  });

  it('is kept for the retention days, then swept; the setting is validated and audited', async () => {
    await expectFieldError(await admin.post('ai-trace/settings', { retention_days: 0 }), 'retention_days');
    expect(await admin.ok('POST', 'ai-trace/settings', { retention_days: 3 })).toEqual({ retention_days: 3 });
    expect((await admin.ok('GET', 'ai-trace/settings')).retention_days).toBe(3);
    const old = done(await stream({ shop_id: shopId, message: 'Can I return an item?' })).trace_id;
    const recent = done(await stream({ shop_id: shopId, message: 'Can I return an item?' })).trace_id;
    await s.db.query(`UPDATE ai_trace SET created_at = now() - interval '4 days' WHERE id = $1`, [old]);
    await s.db.query(`UPDATE ai_trace SET created_at = now() - interval '2 days' WHERE id = $1`, [recent]);
    expect(await sweepTraces(s.db, new Date())).toBeGreaterThanOrEqual(1);
    expect((await admin.get('ai-trace/detail', { id: old })).body.code).toBe(40004);
    expect((await admin.ok('GET', 'ai-trace/detail', { id: recent })).id).toBe(recent);
    const audit = await s.db.query(`SELECT 1 FROM audit_logs WHERE resource = 'ai_trace_settings'`);
    expect(audit.rows.length).toBe(1);
  });
});
