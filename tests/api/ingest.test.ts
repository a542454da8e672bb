// @db both — upserts by shop and external id under concurrent calls (ON CONFLICT)
/**
 * The ingestion API (issue 14, docs/api.md "Ingestion API"): service tokens made on the admin
 * page (list / create / revoke under their own keys), stored only hashed, shown once; bearer
 * authentication with scopes (no console session passes); idempotent batches (a retried batch
 * makes no copy); record-by-record checks (a bad record is rejected naming its field while the
 * good ones land); whole-request refusals (not an array, too many, NUL, bad token, missing scope).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPE_KEYS } from '../../server/routes/service-tokens.js';
import { startServer, type ApiClient, type ApiResponse, type TestServer } from './harness.js';

let s: TestServer;
let admin: ApiClient;
let shopId: number;
let otherShopId: number;
/** every scope but orders */
let noOrders: string;
/** every scope */
let full: string;

const K = {
  page: 'admin_center.admin.service_token',
  create: 'admin_center.admin.service_token.create',
  revoke: 'admin_center.admin.service_token.delete',
};

const ingest = (token: string | null, kind: string, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> =>
  s.anon().request('POST', `/api/ingest/v1/${kind}`, { body, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

async function createToken(name: string, scopes: string[]): Promise<{ id: number; token: string }> {
  const r = await admin.post('service-token/create', { name, scopes });
  expect(r.body.code, r.body.msg).toBe(10000);
  return r.body.data;
}

const count = async (sql: string, params: unknown[] = []): Promise<number> => Number((await s.db.query<{ n: number }>(sql, params)).rows[0].n);

const order = (ext: string, extra: Record<string, unknown> = {}) => ({
  external_id: ext,
  shop_id: shopId,
  name: `#${ext}`,
  email: 'buyer@example.com',
  customer_name: 'Buyer',
  amount: 12.5,
  currency: 'EUR',
  financial_status: 'paid',
  fulfillment_status: 'unfulfilled',
  created_at: '2026-03-01T10:00:00Z',
  ...extra,
});

beforeAll(async () => {
  s = await startServer({ config: { workers: 0 } as never });
  admin = await s.login();
  const shop = async (name: string) => (await s.db.query<{ id: number }>('INSERT INTO shop (name, type) VALUES ($1, 1) RETURNING id', [name])).rows[0].id;
  shopId = await shop('ingest shop');
  otherShopId = await shop('ingest other shop');
  noOrders = (await createToken('platform without orders', ['sessions', 'mails', 'feedback', 'tickets', 'call_logs'])).token;
  full = (await createToken('platform', ['sessions', 'mails', 'orders', 'feedback', 'tickets', 'call_logs'])).token;
});
afterAll(async () => s?.close());

describe('service tokens (admin page)', () => {
  it('are shown once, stored only as their sha-256: the clear token is in no table', async () => {
    const { id, token } = await createToken('hash check', ['orders']);
    expect(token).toMatch(/^bct_[A-Za-z0-9_-]{43}$/);
    const row = (await s.db.query<{ token_hash: string; token_hint: string }>('SELECT token_hash, token_hint FROM service_token WHERE id = $1', [id])).rows[0];
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row.token_hint).toBe(token.slice(0, 8));
    // use it once, so every place a call could leave it (audit rows, last use) has had its chance
    expect((await ingest(token, 'orders', { records: [order('hash-1')] })).body.code).toBe(10000);
    const tables = (await s.db.query<{ t: string }>(
      `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    )).rows.map((x) => x.t);
    expect(tables).toContain('service_token');
    const holding: string[] = [];
    for (const t of tables) {
      if (await count(`SELECT count(*)::int AS n FROM "${t}" x WHERE strpos(x::text, $1) > 0`, [token])) holding.push(t);
    }
    expect(holding).toEqual([]);
    // never returned again: the list shows the hint only
    const list = (await admin.get('service-token/list', { page_size: 100 })).body.data;
    expect(JSON.stringify(list)).not.toContain(token);
    expect(list.list.find((x: { id: number }) => x.id === id)).toMatchObject({ name: 'hash check', token_hint: token.slice(0, 8), scopes: ['orders'], state: 'active', created_by_name: 'Admin' });
    const audit = (await s.db.query<{ after: Record<string, unknown> }>(`SELECT after FROM audit_logs WHERE resource = 'service_token' AND action = 'create' AND target_id = $1`, [String(id)])).rows;
    expect(audit).toHaveLength(1);
    expect(audit[0].after).toMatchObject({ name: 'hash check', scopes: ['orders'] });
  });

  it('list, create and revoke need their permission keys', async () => {
    const anon = s.anon();
    expect((await anon.get('service-token/list')).body.code).toBe(20001);
    expect((await anon.post('service-token/create', { name: 'x', scopes: ['orders'] })).body.code).toBe(20001);
    expect((await anon.post('service-token/revoke', { id: 1 })).body.code).toBe(20001);

    const viewer = await s.loginWithKeys([K.page]);
    expect((await viewer.get('service-token/list')).body.code).toBe(10000);
    // routes open to any signed-in account are untouched by the service access kind
    expect((await viewer.get('User/Get')).body.code).toBe(10000);
    expect((await viewer.post('service-token/create', { name: 'x', scopes: ['orders'] })).body.code).toBe(40003);
    expect((await viewer.post('service-token/revoke', { id: 1 })).body.code).toBe(40003);

    const other = await s.loginWithKeys(['admin_center.admin.job']);
    expect((await other.get('service-token/list')).body.code).toBe(40003);

    // minting a tickets token needs the key of the page tickets land on (the ceiling, issue 25)
    const creator = await s.loginWithKeys([K.page, K.create, SCOPE_KEYS.tickets]);
    const made = await creator.post('service-token/create', { name: 'by creator', scopes: ['tickets'] });
    expect(made.body.code).toBe(10000);
    expect((await creator.post('service-token/revoke', { id: made.body.data.id })).body.code).toBe(40003);

    const revoker = await s.loginWithKeys([K.page, K.revoke]);
    expect((await revoker.post('service-token/create', { name: 'x', scopes: ['orders'] })).body.code).toBe(40003);
    const rev = await revoker.post('service-token/revoke', { id: made.body.data.id });
    expect(rev.body.code).toBe(10000);
    expect(rev.body.data).toMatchObject({ state: 'revoked', revoked_at: expect.any(String) });
    expect((await revoker.post('service-token/revoke', { id: made.body.data.id })).body.code).toBe(40009);
    expect((await revoker.post('service-token/revoke', { id: 99999999 })).body.code).toBe(40004);
    expect((await s.db.query(`SELECT 1 FROM audit_logs WHERE resource = 'service_token' AND action = 'revoke' AND target_id = $1`, [String(made.body.data.id)])).rows).toHaveLength(1);
  });

  it('the page and its create form are served to key holders only, the form with the server\'s bounds', async () => {
    const viewer = await s.loginWithKeys([K.page, K.create]);
    const page = await viewer.get('schema/detail', { id: 'admin_center.service_token.list' });
    expect(page.body.code).toBe(10000);
    expect(page.body.data.schema.routes).toEqual(['/admin_center/system/service-tokens']);
    const form = await viewer.get('schema/detail', { id: 'admin_center.service_token.form' });
    expect(form.body.code).toBe(10000);
    expect(JSON.stringify(form.body.data.fields)).toContain('"maxLength":100');
    const other = await s.loginWithKeys(['admin_center.admin.job']);
    expect((await other.get('schema/detail', { id: 'admin_center.service_token.list' })).body.code).toBe(40004);
  });

  it('refuses a bad name or unknown scopes with 40001', async () => {
    expect((await admin.post('service-token/create', { name: '', scopes: ['orders'] })).body.code).toBe(40001);
    const r = await admin.post('service-token/create', { name: 'x', scopes: ['orders', 'accounts'] });
    expect(r.body.code).toBe(40001);
    expect(r.body.data.errors[0].field).toMatch(/^scopes/);
    expect((await admin.post('service-token/create', { name: 'x', scopes: [] })).body.code).toBe(40001);
  });
});

describe('bearer authentication and scopes', () => {
  it('a token without the orders scope is refused for orders (40003, audited) and accepted for its own scopes', async () => {
    const before = await count('SELECT count(*)::int AS n FROM shop_order');
    const r = await ingest(noOrders, 'orders', { records: [order('scope-1')] });
    expect(r.body.code).toBe(40003);
    expect(r.body.msg).toContain('orders');
    expect(await count('SELECT count(*)::int AS n FROM shop_order')).toBe(before);
    expect(await count(`SELECT count(*)::int AS n FROM audit_logs WHERE action = 'forbidden' AND actor_email LIKE 'service-token:%:platform without orders'`)).toBe(1);
    const ok = await ingest(noOrders, 'tickets', { records: [{ external_id: 'scope-t', shop_id: shopId, subject: 'Where is my parcel?', question: 'It has been 10 days.' }] });
    expect(ok.body.code).toBe(10000);
    expect(ok.body.data.results[0]).toMatchObject({ status: 'created' });
  });

  it('no token, a malformed one, an unknown one or a console session alone: 20001', async () => {
    const body = { records: [order('auth-1')] };
    expect((await ingest(null, 'orders', body)).body.code).toBe(20001);
    expect((await ingest('not-a-token', 'orders', body)).body.code).toBe(20001);
    expect((await ingest(`bct_${'A'.repeat(43)}`, 'orders', body)).body.code).toBe(20001);
    expect((await ingest(null, 'orders', body, { authorization: `Basic ${full}` })).body.code).toBe(20001);
    // the super admin's signed-in session (header + cookies) is not a service token
    const r = await admin.request('POST', '/api/ingest/v1/orders', { body });
    expect(r.body.code).toBe(20001);
    expect(await count(`SELECT count(*)::int AS n FROM shop_order WHERE external_id = 'auth-1'`)).toBe(0);
  });

  it('a revoked token is refused at once', async () => {
    const { id, token } = await createToken('to revoke', ['orders']);
    expect((await ingest(token, 'orders', { records: [order('rev-1')] })).body.code).toBe(10000);
    expect((await admin.post('service-token/revoke', { id })).body.code).toBe(10000);
    const r = await ingest(token, 'orders', { records: [order('rev-2')] });
    expect(r.body.code).toBe(20001);
    expect(await count(`SELECT count(*)::int AS n FROM shop_order WHERE external_id = 'rev-2'`)).toBe(0);
  });

  it('records its last use', async () => {
    const { id, token } = await createToken('last use', ['feedback']);
    expect((await s.db.query<{ last_used_at: unknown }>('SELECT last_used_at FROM service_token WHERE id = $1', [id])).rows[0].last_used_at).toBeNull();
    await ingest(token, 'feedback', { records: [{ external_id: 'lu-1', shop_id: shopId, description: 'wrong answer' }] });
    expect((await s.db.query<{ last_used_at: unknown }>('SELECT last_used_at FROM service_token WHERE id = $1', [id])).rows[0].last_used_at).not.toBeNull();
  });
});

describe('idempotency', () => {
  it('the same order batch twice makes one copy; a changed record is updated', async () => {
    const batch = { records: [order('idem-1'), order('idem-2'), order('idem-3')] };
    const first = await ingest(full, 'orders', batch);
    expect(first.body.code).toBe(10000);
    expect(first.body.data).toMatchObject({ created: 3, updated: 0, unchanged: 0, rejected: 0 });
    expect(first.body.data.results.map((r: { status: string }) => r.status)).toEqual(['created', 'created', 'created']);
    const again = await ingest(full, 'orders', batch);
    expect(again.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 3, rejected: 0 });
    expect(again.body.data.results.map((r: { id: number }) => r.id)).toEqual(first.body.data.results.map((r: { id: number }) => r.id));
    expect(await count(`SELECT count(*)::int AS n FROM shop_order WHERE shop_id = $1 AND external_id LIKE 'idem-%'`, [shopId])).toBe(3);

    // key order does not matter; a changed field updates the same row
    const reordered = Object.fromEntries(Object.entries(order('idem-1')).reverse());
    const changed = await ingest(full, 'orders', { records: [reordered, order('idem-2', { fulfillment_status: 'fulfilled', tracking_number: 'TN1' })] });
    expect(changed.body.data.results.map((r: { status: string }) => r.status)).toEqual(['unchanged', 'updated']);
    expect((await s.db.query('SELECT fulfillment_status, tracking_number FROM shop_order WHERE shop_id = $1 AND external_id = $2', [shopId, 'idem-2'])).rows[0]).toEqual({ fulfillment_status: 'fulfilled', tracking_number: 'TN1' });
    expect(await count(`SELECT count(*)::int AS n FROM shop_order WHERE external_id LIKE 'idem-%'`)).toBe(3);

    // the same external id in another shop is another order
    const other = await ingest(full, 'orders', { records: [order('idem-1', { shop_id: otherShopId })] });
    expect(other.body.data.results[0].status).toBe('created');

    // each batch leaves one audit row naming the token, not its secret
    const audits = (await s.db.query<{ actor_email: string; after: Record<string, unknown> }>(`SELECT actor_email, after FROM audit_logs WHERE action = 'ingest' AND target_id = 'orders' ORDER BY id DESC LIMIT 4`)).rows;
    expect(audits[3].after).toMatchObject({ records: 3, created: 3, service: { name: 'platform' } });
    expect(audits[2].after).toMatchObject({ records: 3, unchanged: 3 });
    expect(audits[0].actor_email).toMatch(/^service-token:\d+:platform$/);
  });

  it('a session with all 17 message types, sent twice, is stored once with its messages', async () => {
    const messages = Array.from({ length: 17 }, (_, i) => ({ msg_type: i + 1, sender: i % 2 ? 'ai' : 'customer', content: `message ${i + 1}`, sent_at: `2026-03-01T10:${String(i).padStart(2, '0')}:00Z` }));
    const rec = { external_id: 'chat-1', shop_id: shopId, customer_name: 'Ann', customer_email: 'ann@example.com', channel: 'web', country_code: 'DE', started_at: '2026-03-01T10:00:00Z', ended_at: '2026-03-01T10:30:00Z', messages };
    const first = await ingest(full, 'sessions', { records: [rec] });
    expect(first.body.data.results[0]).toMatchObject({ status: 'created', external_id: 'chat-1' });
    const id = first.body.data.results[0].id;
    expect((await ingest(full, 'sessions', { records: [rec] })).body.data.results[0].status).toBe('unchanged');
    expect(await count('SELECT count(*)::int AS n FROM chat_session WHERE shop_id = $1 AND external_id = $2', [shopId, 'chat-1'])).toBe(1);
    const types = (await s.db.query<{ msg_type: number }>('SELECT msg_type FROM chat_message WHERE session_id = $1 ORDER BY sent_at, id', [id])).rows.map((x) => x.msg_type);
    expect(types).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    expect((await s.db.query('SELECT message_count, last_message FROM chat_session WHERE id = $1', [id])).rows[0]).toEqual({ message_count: 17, last_message: 'message 17' });
    // a longer conversation replaces the messages (no duplicates)
    const more = { ...rec, messages: [...messages, { msg_type: 8, sent_at: '2026-03-01T10:40:00Z', content: 'bye' }] };
    expect((await ingest(full, 'sessions', { records: [more] })).body.data.results[0]).toMatchObject({ status: 'updated', id });
    expect(await count('SELECT count(*)::int AS n FROM chat_message WHERE session_id = $1', [id])).toBe(18);
    // message type 18 does not exist
    const bad = await ingest(full, 'sessions', { records: [{ ...rec, external_id: 'chat-2', messages: [{ msg_type: 18, sent_at: '2026-03-01T10:00:00Z' }] }] });
    expect(bad.body.data.results[0]).toMatchObject({ status: 'rejected', errors: [expect.objectContaining({ field: 'messages.0.msg_type' })] });
  });

  it('re-ingesting a session keeps the ids of messages still there, so marks stay on them; a dropped message\'s mark is cleared, never dangling', async () => {
    const msg = (i: number, content = `line ${i}`) => ({ msg_type: 1, sender: 'customer', content, sent_at: `2026-03-02T10:0${i}:00Z` });
    const rec = { external_id: 'chat-marks', shop_id: shopId, customer_name: 'Bo', channel: 'web', started_at: '2026-03-02T10:00:00Z', messages: [msg(1), msg(2), msg(3)] };
    const id = (await ingest(full, 'sessions', { records: [rec] })).body.data.results[0].id as number;
    const ids = async () => (await s.db.query<{ id: number; content: string }>('SELECT id, content FROM chat_message WHERE session_id = $1 ORDER BY id', [id])).rows;
    const [first, second, third] = await ids();
    const mark = async (messageId: number) => {
      const r = await admin.post('session/mark/create', { session_id: id, message_id: messageId, mark_type: 'answer', is_correct: false, question: 'q', answer: 'a' });
      expect(r.body.code, r.body.msg).toBe(10000);
      return r.body.data.id as number;
    };
    const onSecond = await mark(second.id);
    const onThird = await mark(third.id);
    // the platform corrects the second message and drops the third
    const changed = { ...rec, messages: [msg(1), msg(2, 'line 2, corrected')] };
    expect((await ingest(full, 'sessions', { records: [changed] })).body.data.results[0]).toMatchObject({ status: 'updated', id });
    expect(await ids()).toEqual([{ id: first.id, content: 'line 1' }, { id: second.id, content: 'line 2, corrected' }]);
    const markOf = async (markId: number) => (await s.db.query<{ message_id: number | null }>('SELECT message_id FROM session_mark WHERE id = $1', [markId])).rows[0].message_id;
    expect(await markOf(onSecond)).toBe(second.id);
    expect(await markOf(onThird)).toBeNull();
    expect(await count('SELECT count(*)::int AS n FROM session_mark m WHERE m.message_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM chat_message c WHERE c.id = m.message_id)')).toBe(0);
    // a longer conversation again: the kept ids stay, the new message is added after them
    const longer = { ...rec, messages: [msg(1), msg(2, 'line 2, corrected'), msg(3, 'line 3 again'), msg(4)] };
    await ingest(full, 'sessions', { records: [longer] });
    const after = await ids();
    expect(after.map((m) => m.content)).toEqual(['line 1', 'line 2, corrected', 'line 3 again', 'line 4']);
    expect(after.slice(0, 2).map((m) => m.id)).toEqual([first.id, second.id]);
  });

  it('mails (direction types 1–6), feedback naming a session, tickets and call logs land once', async () => {
    const mails = [1, 2, 3, 4, 5, 6].map((d, i) => ({ direction_type: d, from_addr: 'a@example.com', to_addr: 'b@example.com', subject: 'Refund', body: `mail ${d}`, is_read: 1, sent_at: `2026-03-02T0${i}:00:00Z` }));
    const thread = { external_id: 'mail-1', shop_id: shopId, subject: 'Refund', customer_email: 'a@example.com', mails };
    for (const want of ['created', 'unchanged']) expect((await ingest(full, 'mails', { records: [thread] })).body.data.results[0].status).toBe(want);
    const mid = (await s.db.query<{ id: number; mail_count: number }>('SELECT id, mail_count FROM mail_session WHERE external_id = $1', ['mail-1'])).rows;
    expect(mid).toHaveLength(1);
    expect(mid[0].mail_count).toBe(6);
    expect((await s.db.query<{ d: number }>('SELECT direction_type AS d FROM mail_message WHERE session_id = $1 ORDER BY sent_at', [mid[0].id])).rows.map((x) => x.d)).toEqual([1, 2, 3, 4, 5, 6]);
    const badMail = await ingest(full, 'mails', { records: [{ ...thread, external_id: 'mail-2', mails: [{ ...mails[0], direction_type: 7 }] }] });
    expect(badMail.body.data.results[0].errors[0].field).toBe('mails.0.direction_type');

    const fb = { external_id: 'fb-1', shop_id: shopId, session_external_id: 'chat-1', description: 'the bot gave the wrong address', platform: 'web', status: 'pending' };
    const f1 = await ingest(full, 'feedback', { records: [fb, { ...fb, external_id: 'fb-2', session_external_id: 'no-such-chat' }] });
    expect(f1.body.data.results.map((r: { status: string }) => r.status)).toEqual(['created', 'rejected']);
    expect(f1.body.data.results[1].errors[0].field).toBe('session_external_id');
    expect((await ingest(full, 'feedback', { records: [fb] })).body.data.results[0].status).toBe('unchanged');
    expect(await count(`SELECT count(*)::int AS n FROM feedback f JOIN chat_session c ON c.id = f.session_id WHERE f.external_id = 'fb-1' AND c.external_id = 'chat-1'`)).toBe(1);

    const ticket = { external_id: 'tk-1', shop_id: shopId, channel: 'email', subject: 'Size exchange', question: 'Can I exchange M for L?', answer: 'Yes, within 30 days.' };
    for (const want of ['created', 'unchanged']) expect((await ingest(full, 'tickets', { records: [ticket] })).body.data.results[0].status).toBe(want);
    expect((await s.db.query(`SELECT source_type, status, ticket_learn, channel FROM learn_material WHERE external_id = 'tk-1'`)).rows).toEqual([{ source_type: 3, status: 0, ticket_learn: 0, channel: 'email' }]);

    const call = { external_id: 'call-1', shop_id: shopId, caller_number: '+4930123', callee_number: '+4930999', duration_seconds: 42, result: 1, called_at: '2026-03-03T09:00:00Z', transcript: [{ role: 'ai', content: 'Hello', offset_ms: 0 }] };
    for (const want of ['created', 'unchanged']) expect((await ingest(full, 'call-logs', { records: [call] })).body.data.results[0].status).toBe(want);
    expect((await s.db.query(`SELECT duration_seconds, result, task_id, transcript FROM call_log WHERE external_id = 'call-1'`)).rows).toEqual([
      { duration_seconds: 42, result: 1, task_id: null, transcript: [{ role: 'ai', content: 'Hello', offset_ms: 0 }] },
    ]);
  });
});

describe('record by record checks and whole-request refusals', () => {
  it('rejects a bad record naming its field while the good ones land', async () => {
    const records = [
      order('mix-1'),
      order('mix-2', { created_at: '2026-02-30T10:00:00Z' }), // no February 30th
      order('mix-3', { name: 'x'.repeat(41) }), // longer than the column
      order('mix-4', { shop_id: 99999999 }), // no such shop
      order('mix-5', { financial_status: 'stolen', extra: 1 }),
      'not an object',
      order('mix-7', { customer_name: 'y'.repeat(200_000) }), // a huge string
      order('mix-8', { created_at: '2026-13-01T00:00:00Z' }),
      order('mix-9'),
    ];
    const r = await ingest(full, 'orders', { records });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(10000);
    const res = r.body.data.results as Array<{ index: number; status: string; errors?: Array<{ field: string; message: string }> }>;
    expect(res.map((x) => x.status)).toEqual(['created', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'created']);
    expect(res.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const fields = (i: number) => (res[i].errors ?? []).map((e) => e.field);
    expect(fields(1)).toEqual(['created_at']);
    expect(fields(2)).toEqual(['name']);
    expect(fields(3)).toEqual(['shop_id']);
    expect(fields(4).sort()).toEqual(['extra', 'financial_status']);
    expect(fields(5)).toEqual(['record']);
    expect(fields(6)).toEqual(['customer_name']);
    expect(fields(7)).toEqual(['created_at']);
    // messages in both languages
    expect(res[2].errors![0].message).toMatch(/ \/ .*\p{Script=Han}/u);
    expect(r.body.data).toMatchObject({ created: 2, rejected: 7 });
    expect((await s.db.query<{ e: string }>(`SELECT external_id AS e FROM shop_order WHERE external_id LIKE 'mix-%' ORDER BY 1`)).rows.map((x) => x.e)).toEqual(['mix-1', 'mix-9']);
    // only the caller's language when it asks for one
    const bad = { records: [order('mix-2', { created_at: '2026-02-30T10:00:00Z' })] };
    const zh = (await ingest(full, 'orders', bad, { 'x-lang': 'zh-CN' })).body.data.results[0].errors[0].message;
    expect(zh).toMatch(/\p{Script=Han}/u);
    expect(zh).not.toContain('must');
    const en = (await ingest(full, 'orders', bad, { 'x-lang': 'en-US' })).body.data.results[0].errors[0].message;
    expect(en).toContain('must');
    expect(en).not.toMatch(/\p{Script=Han}/u);
  });

  it('a body that is not a batch, more than 1,000 records or a NUL character: 40001 naming the field, nothing written', async () => {
    const before = await count('SELECT count(*)::int AS n FROM shop_order');
    const notArray = await ingest(full, 'orders', { records: { a: 1 } });
    expect(notArray.body.code).toBe(40001);
    expect(notArray.body.data.errors[0].field).toBe('records');
    const bare = await ingest(full, 'orders', [order('bare-1')]);
    expect(bare.body.code).toBe(40001);
    expect((await ingest(full, 'orders', { records: [] })).body.code).toBe(40001);
    const tooMany = await ingest(full, 'orders', { records: Array.from({ length: 1001 }, (_, i) => order(`many-${i}`)) });
    expect(tooMany.status).toBe(200);
    expect(tooMany.body.code).toBe(40001);
    expect(tooMany.body.data.errors[0].field).toBe('records');
    const nul = await ingest(full, 'orders', { records: [order('nul-1'), order('nul-2', { customer_name: 'a\u0000b' })] });
    expect(nul.body.code).toBe(40001);
    expect(nul.body.data.errors[0].field).toBe('records.1.customer_name');
    const broken = await ingest(full, 'orders', '{"records": [');
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe(40001);
    expect(await count('SELECT count(*)::int AS n FROM shop_order')).toBe(before);
  });

  it('takes a full batch of 1,000 records, larger than the console\'s 1 MiB body limit', async () => {
    const records = Array.from({ length: 1000 }, (_, i) => order(`bulk-${i}`, { raw: { note: 'n'.repeat(1500), i } }));
    expect(JSON.stringify({ records }).length).toBeGreaterThan(1024 * 1024);
    const r = await ingest(full, 'orders', { records });
    expect(r.body.code).toBe(10000);
    expect(r.body.data).toMatchObject({ created: 1000, rejected: 0 });
    expect((await ingest(full, 'orders', { records })).body.data).toMatchObject({ unchanged: 1000 });
    expect(await count(`SELECT count(*)::int AS n FROM shop_order WHERE external_id LIKE 'bulk-%'`)).toBe(1000);
    expect((await s.db.query(`SELECT raw->>'i' AS i FROM shop_order WHERE external_id = 'bulk-7'`)).rows).toEqual([{ i: '7' }]);
  });
});

describe('OpenAPI', () => {
  it('documents the ingestion routes with the bearer scheme and the record schema', async () => {
    const doc = (await (await fetch(`${s.url}/api/docs/json`)).json()) as {
      paths: Record<string, { post?: { security?: unknown; requestBody?: { content: Record<string, { schema: { properties: { records: { items: Record<string, unknown> } } } }> } } }>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.components.securitySchemes.serviceToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const kind of ['sessions', 'mails', 'orders', 'feedback', 'tickets', 'call-logs']) {
      const op = doc.paths[`/api/ingest/v1/${kind}`]?.post;
      expect(op?.security, kind).toEqual([{ serviceToken: [] }]);
      const items = op?.requestBody?.content['application/json'].schema.properties.records.items;
      expect(items?.['x-record-schema'], kind).toMatchObject({ required: expect.arrayContaining(['external_id', 'shop_id']) });
    }
    expect(doc.paths['/api/admin/service-token/create']?.post?.security).toEqual([{ adminToken: [] }]);
  });
});
