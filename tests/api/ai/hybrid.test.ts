// @db both — vector columns and the embed job
/**
 * Hybrid ranking (server/ai/knowledge/embed.ts, server/ai/retrieval/search.ts) against the fake
 * OpenAI server with embeddings this test defines: a vector per "concept" (returns, shipping,
 * warranty), so a question with none of the knowledge's words can still be close to a chunk.
 * Chunks get their vectors in the background (the knowledge.embed tick and job), search fuses
 * BM25 and vectors, and falls back to BM25 alone (and says so) when the server is off, fails or
 * times out; a change of embeddings model embeds everything again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSse } from '../../../src/screens/playground/stream.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { until } from '../jobs/until.js';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.js';

const CONCEPTS: RegExp[] = [/\breturn|\brefund|\bsend\b.*\bback\b|退/i, /\bship|\bdeliver|\bups\b|发货/i, /\bwarrant|\bdefect|保修/i];

/** emb-a: one dimension per concept; emb-b: the same, dimensions reversed; emb-bad fails; emb-slow never answers */
function embedder(text: string, model: string): number[] | 'error' | 'hang' {
  if (model === 'emb-bad') return 'error';
  if (model === 'emb-slow') return 'hang';
  const v = [...CONCEPTS.map((re) => (re.test(text) ? 1 : 0)), 0.05];
  return model === 'emb-b' ? v.reverse() : v;
}

let s: TestServer;
let admin: ApiClient;
let fake: FakeOpenAI;
let shopA: number;
let shopB: number;
let serverId: number;

/**
 * no word of it is in the knowledge, nor one the lexicon adds (server/ai/knowledge/lexicon.ts:
 * "send back" and "purchase" would find the return policy by BM25); its vector is the returns concept
 */
const SEND_BACK = 'Can I send my jumper back?';

const hitTest = (body: Record<string, unknown>) => admin.ok<any>('POST', 'knowledge/hit-test', body);

async function addPolicy(shop: number, title: string, content: string): Promise<number> {
  const r = await admin.ok<{ id: number }>('POST', 'shop/policy/create', { shop_id: shop, title, content, source_type: 1, channel: 'chat', status: 1 });
  return r.id;
}

/** chunks of every shop, and those with a vector of `key` */
async function embeddedCount(key: string) {
  const r = await s.db.query<{ total: number; done: number; pending: number }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE embedding_key = $1)::int AS done,
            (SELECT count(*)::int FROM knowledge_pending) AS pending
       FROM knowledge_chunk`,
    [key],
  );
  return r.rows[0];
}

const allEmbedded = (key: string) => until(() => embeddedCount(key), (c) => c.total > 0 && c.pending === 0 && c.done === c.total, 40_000);

const embedRequests = (model: string) => fake.requests.filter((r) => r.path === '/v1/embeddings' && r.body.model === model);

beforeAll(async () => {
  fake = await startFakeOpenAI({ embed: embedder });
  s = await startServer();
  admin = await s.login();
  const shop = async (name: string) => (await s.db.query<{ id: number }>(`INSERT INTO shop (name, type) VALUES ($1, 1) RETURNING id`, [name])).rows[0].id;
  shopA = await shop('Hybrid Outfitters');
  shopB = await shop('Other Shop');
  await addPolicy(shopA, 'Return policy', 'Unworn items can be returned within 30 days. Refunds go to the original payment method.');
  await addPolicy(shopA, 'Shipping', 'Orders ship with UPS Ground in 3 to 5 business days.');
  await addPolicy(shopA, 'Warranty', 'Backpacks carry a 2-year warranty against defects.');
  await addPolicy(shopB, 'Returns at the other shop', 'Refunds within 14 days.');
});

afterAll(async () => {
  await s?.close();
  await fake?.close();
});

describe('without an embeddings server', () => {
  it('ranks by BM25 alone and says so; a question without the knowledge words finds nothing', async () => {
    const r = await hitTest({ shop_id: shopA, query: 'refund' });
    expect(r.ranking).toBe('bm25');
    expect(r.ranking_note).toContain('no embeddings server');
    expect(r.embedded).toBeNull();
    expect(r.list[0]).toMatchObject({ title: 'Return policy', similarity: null, fused: null });
    expect(r.list[0].bm25).toBe(r.list[0].score);
    expect((await hitTest({ shop_id: shopA, query: SEND_BACK })).list).toEqual([]);
    expect(fake.requests.filter((x) => x.path === '/v1/embeddings')).toEqual([]);
  });
});

describe('with an embeddings server', () => {
  beforeAll(async () => {
    const d = await admin.ok<{ id: number }>('POST', 'config/model-server/create', {
      name: 'embeddings',
      model: 'ok-chat',
      endpoint: fake.baseUrl,
      // room for a loaded machine: every call must answer (the time-out case has its own test)
      timeout_ms: 30000,
      supports_embeddings: true,
      embedding_model: 'emb-a',
    });
    serverId = d.id;
  });

  it('embeds every chunk in the background, with no further call, L2-normalised, each batch recorded', async () => {
    await allEmbedded(`${serverId}:emb-a`);
    const v = await s.db.query<{ embedding: number[] }>(`SELECT embedding FROM knowledge_chunk WHERE title = 'Warranty'`);
    const vec = v.rows[0].embedding.map(Number);
    expect(vec.reduce((a, x) => a + x * x, 0)).toBeCloseTo(1, 5);
    expect(vec[2]).toBeGreaterThan(0.99);
    const calls = await s.db.query<{ outcome: string }>(`SELECT outcome FROM model_call WHERE kind = 'embed' AND model = 'emb-a'`);
    expect(calls.rows.length).toBeGreaterThan(0);
    expect(calls.rows.every((c) => c.outcome === 'ok')).toBe(true);
    const jobs = await until(() => s.db.query<{ state: string }>(`SELECT state FROM work_job WHERE kind = 'knowledge.embed'`), (r) => r.rows.some((j) => j.state === 'done'));
    expect(jobs.rows.map((j) => j.state)).toContain('done');
  });

  it('finds by vector what BM25 alone does not: the hit-test says hybrid, with each score', async () => {
    const r = await hitTest({ shop_id: shopA, query: SEND_BACK });
    expect(r.ranking).toBe('hybrid');
    expect(r.ranking_note).toBe('');
    expect(r.embeddings).toEqual({ server_id: serverId, server: 'embeddings', model: 'emb-a' });
    expect(r.embedded).toBe(r.scope);
    expect(r.scope).toBe(3); // shop A's three policies (the other shop's are out of scope)
    expect(r.list[0]).toMatchObject({ title: 'Return policy', score: 0, bm25: null, matched: 0 });
    expect(r.list[0].similarity).toBeGreaterThan(0.99);
    expect(r.list[0].fused).toBeGreaterThan(0);
    expect(r.list.map((h: { title: string }) => h.title)).not.toContain('Returns at the other shop');
    for (let i = 1; i < r.list.length; i++) expect(r.list[i].fused).toBeLessThanOrEqual(r.list[i - 1].fused);

    const lexical = await hitTest({ shop_id: shopA, query: SEND_BACK, ranking: 'bm25' });
    expect(lexical.ranking).toBe('bm25');
    expect(lexical.list).toEqual([]);
  });

  it('the built-in responder answers from a passage found by its vector alone, and cites it', async () => {
    const headers: Record<string, string> = { 'content-type': 'application/json', cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (admin.token) headers['admin-token'] = admin.token;
    const res = await fetch(admin.url('prompt/playground-stream'), { method: 'POST', headers, body: JSON.stringify({ shop_id: shopA, message: SEND_BACK }) });
    const done = parseSse(await res.text()).events.at(-1)!;
    expect(done.event).toBe('done');
    const d = done.data as { responder: string; text: string; citations: Array<{ title: string }> };
    expect(d.responder).toBe('builtin');
    expect(d.citations[0]).toMatchObject({ title: 'Return policy' });
    expect(d.text).toContain('returned within 30 days');
  });

  it('fuses both: a word match and a close vector rank first; the filters hold for the vectors too', async () => {
    const r = await hitTest({ shop_id: shopA, query: 'refund' });
    expect(r.ranking).toBe('hybrid');
    expect(r.list[0]).toMatchObject({ title: 'Return policy' });
    expect(r.list[0].bm25).toBeGreaterThan(0);
    expect(r.list[0].bm25).toBe(r.list[0].score);
    expect(r.list[0].similarity).toBeGreaterThan(0.99);
    // both lists put it first: 2 / (60 + 1)
    expect(r.list[0].fused).toBeCloseTo(2 / 61, 5);

    expect((await hitTest({ shop_id: shopA, query: SEND_BACK, channel: 'email' })).list).toEqual([]);
    expect((await hitTest({ shop_id: shopA, query: SEND_BACK, source_types: ['learn_doc'] })).list).toEqual([]);
    expect((await hitTest({ shop_id: shopA, query: SEND_BACK, policy_types: [2] })).list).toEqual([]);
    const other = await hitTest({ shop_id: shopB, query: SEND_BACK });
    expect(other.list.map((h: { title: string }) => h.title)).toEqual(['Returns at the other shop']);
  });

  it('a chunk with no vector yet still ranks by BM25, and gets its vector in the background', async () => {
    await addPolicy(shopA, 'Gift cards', 'Gift cards never expire and cannot be exchanged for cash.');
    const r = await hitTest({ shop_id: shopA, query: 'gift cards' });
    expect(r.ranking).toBe('hybrid');
    expect(r.embedded).toBe(r.scope - 1);
    expect(r.list[0]).toMatchObject({ title: 'Gift cards', similarity: null });
    expect(r.list[0].bm25).toBeGreaterThan(0);
    await allEmbedded(`${serverId}:emb-a`);
    const again = await hitTest({ shop_id: shopA, query: 'gift cards' });
    expect(again.embedded).toBe(again.scope);
    expect(again.list[0].title).toBe('Gift cards');
    expect(again.list[0].similarity).not.toBeNull();
  });

  it('a failing embeddings server: search falls back to BM25 and says why; the embed job fails and is retried', async () => {
    await admin.ok('POST', 'config/model-server/update', { id: serverId, embedding_model: 'emb-bad' });
    const r = await hitTest({ shop_id: shopA, query: 'refund' });
    expect(r.ranking).toBe('bm25');
    expect(r.ranking_note).toContain('could not be embedded');
    expect(r.ranking_note).toContain('HTTP 500');
    expect(r.list[0]).toMatchObject({ title: 'Return policy', similarity: null });
    // the next searches do not wait on the failed server for a while
    const next = await hitTest({ shop_id: shopA, query: SEND_BACK });
    expect(next.ranking).toBe('bm25');
    expect(next.ranking_note).toContain('failed a moment ago');
    expect(next.list).toEqual([]);
    const job = await until(
      () => s.db.query<{ attempts: number; last_error: string; state: string }>(`SELECT attempts, last_error, state FROM work_job WHERE kind = 'knowledge.embed' AND data->>'key' = $1`, [`${serverId}:emb-bad`]),
      (x) => x.rows.length === 1 && x.rows[0].attempts >= 1 && x.rows[0].last_error !== '',
      30_000,
    );
    expect(job.rows[0].last_error).toContain('HTTP 500');
    expect(['queued', 'running', 'failed']).toContain(job.rows[0].state);
    const errors = await s.db.query(`SELECT 1 FROM model_call WHERE kind = 'embed' AND model = 'emb-bad' AND outcome = 'error'`);
    expect(errors.rows.length).toBeGreaterThanOrEqual(2); // the question's call and the job's
    // the old model's vectors are not compared with another model's
    expect((await embeddedCount(`${serverId}:emb-a`)).done).toBeGreaterThan(0);
  });

  it('a server that does not answer in time: BM25, and the reply says it timed out', async () => {
    await admin.ok('POST', 'config/model-server/update', { id: serverId, embedding_model: 'emb-slow', timeout_ms: 400 });
    // (the stand-in never answers: the reply coming back at all is the time-out working)
    const r = await hitTest({ shop_id: shopA, query: 'refund' });
    expect(r.ranking).toBe('bm25');
    expect(r.ranking_note).toContain('timed out');
    expect(r.list[0].title).toBe('Return policy');
  });

  it('a disabled server: BM25, and the reply says there is none', async () => {
    await admin.ok('POST', 'config/model-server/update', { id: serverId, enabled: false, embedding_model: 'emb-a', timeout_ms: 30000 });
    const r = await hitTest({ shop_id: shopA, query: SEND_BACK });
    expect(r.ranking).toBe('bm25');
    expect(r.ranking_note).toContain('no embeddings server');
    expect(r.list).toEqual([]);
  });

  it('switching the embeddings model embeds every chunk again, and hybrid ranking uses the new vectors', async () => {
    const before = embedRequests('emb-b').length;
    await admin.ok('POST', 'config/model-server/update', { id: serverId, enabled: true, embedding_model: 'emb-b' });
    await allEmbedded(`${serverId}:emb-b`);
    expect(embedRequests('emb-b').length).toBeGreaterThan(before);
    const v = await s.db.query<{ embedding: number[] }>(`SELECT embedding FROM knowledge_chunk WHERE title = 'Warranty'`);
    expect(Number(v.rows[0].embedding[1])).toBeGreaterThan(0.99); // emb-b's order
    const r = await hitTest({ shop_id: shopA, query: SEND_BACK });
    expect(r.ranking).toBe('hybrid');
    expect(r.embeddings.model).toBe('emb-b');
    expect(r.list[0]).toMatchObject({ title: 'Return policy' });
    expect(r.list[0].similarity).toBeGreaterThan(0.99);
  });
});
