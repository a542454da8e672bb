// @db once
/**
 * Every route of the session / config-center / operations-tools / prompt areas, table-driven
 * (cases.ts): 40003 without the key and nothing written; 40001 naming the field and nothing
 * written; success for an account holding only the declared key; the audit row of each change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { auditMaxId, auditSince, expectFieldError, expectOk, fingerprint } from '../business/helpers.js';
import { CASES, fixtures, type Fx } from './cases.js';

let s: TestServer;
let admin: ApiClient;
let outsider: ApiClient;
let fx: Fx;
const clients = new Map<string, Promise<ApiClient>>();
const as = (key: string) => {
  if (!clients.has(key)) clients.set(key, s.loginWithKeys([key]));
  return clients.get(key)!;
};

beforeAll(async () => {
  s = await startServer({ seedDemo: true });
  admin = await s.login();
  outsider = await s.loginWithKeys(['admin_center.admin.permission.audit_logs']);
  fx = await fixtures(s);
});
afterAll(async () => {
  await s?.close();
});

describe('session area routes', () => {
  it.each(CASES.map((c, i) => [`${c.method} ${c.path} #${i}`, c] as const))('%s', async (_n, c) => {
    const call = (client: ApiClient, payload: Record<string, unknown>) => (c.method === 'GET' ? client.get(c.path, payload) : client.post(c.path, payload));
    const okPayload = c.ok(fx);
    const before = c.table ? await fingerprint(s, c.table) : '';
    const audit0 = await auditMaxId(s);

    const denied = await call(outsider, okPayload);
    expect(denied.body.code, JSON.stringify(denied.body)).toBe(40003);
    expectFieldError(await call(admin, c.bad(fx)), c.badField);
    if (c.table) expect(await fingerprint(s, c.table)).toBe(before);
    expect(await auditMaxId(s)).toBe(audit0);

    const r = await call(await as(c.key), okPayload);
    expectOk(r, `${c.method} ${c.path}`);
    c.check?.(r.body.data, fx);
    if (c.audit) {
      if (c.table) expect(await fingerprint(s, c.table)).not.toBe(before);
      const rows = await auditSince(s, audit0);
      const a = rows.find((x) => x.action === c.audit!.action && x.resource === c.audit!.resource);
      expect(a, JSON.stringify(rows.map((x) => [x.action, x.resource]))).toBeDefined();
      expect(a!.actor_email).toContain('@');
    } else if (c.method === 'POST') {
      expect(await auditMaxId(s)).toBe(audit0);
    }
  });
});

const ok = async (r: Awaited<ReturnType<ApiClient['get']>>, what: string) => {
  expectOk(r, what);
  return r.body.data as unknown;
};

describe('chat session status, derived at read from the transcript end (no stored row changes)', () => {
  it('a session whose transcript ends with the end event reads ended, with the end time of that message; one without reads ongoing', async () => {
    const shop = (await s.db.query<{ id: number }>('SELECT id FROM shop ORDER BY id LIMIT 1')).rows[0].id;
    const mk = async (last: [number, string] | null) => {
      const r = await s.db.query<{ id: number }>(
        `INSERT INTO chat_session (shop_id, customer_name, customer_email, started_at) VALUES ($1, 'Status Probe', 'probe@example.com', now() - interval '1 hour') RETURNING id`,
        [shop],
      );
      const id = r.rows[0].id;
      await s.db.query(`INSERT INTO chat_message (session_id, msg_type, sender, content, sent_at) VALUES ($1, 1, 'c', 'hello', now() - interval '50 minutes')`, [id]);
      if (last) await s.db.query(`INSERT INTO chat_message (session_id, msg_type, sender, content, sent_at) VALUES ($1, $2, 'system', $3, now() - interval '40 minutes')`, [id, last[0], last[1]]);
      return id;
    };
    const byEvent = await mk([8, 'Conversation ended']);
    const byText = await mk([5, 'Conversation ended by the customer']);
    const open = await mk(null);
    const stored = await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM chat_session WHERE id = ANY($1) AND ended_at IS NOT NULL`, [[byEvent, byText, open]]);
    expect(stored.rows[0].n).toBe(0);
    for (const [id, status] of [[byEvent, 'ended'], [byText, 'ended'], [open, 'ongoing']] as const) {
      const d = (await ok(await admin.get('session/detail', { id }), 'detail')) as { status: string; ended_at: string | null };
      expect(d.status, `session ${id}`).toBe(status);
      expect(d.ended_at === null, `session ${id} ended_at`).toBe(status === 'ongoing');
    }
    const ended = (await ok(await admin.get('session/list', { status: 'ended', page_size: 100, shop_id: shop }), 'list')) as { list: Array<{ id: number; status: string }> };
    expect(ended.list.every((x) => x.status === 'ended')).toBe(true);
    expect(ended.list.map((x) => x.id)).toEqual(expect.arrayContaining([byEvent, byText]));
    expect(ended.list.map((x) => x.id)).not.toContain(open);
    const ongoing = (await ok(await admin.get('session/list', { status: 'ongoing', page_size: 100 }), 'list')) as { list: Array<{ id: number; status: string }> };
    expect(ongoing.list.every((x) => x.status === 'ongoing')).toBe(true);
    expect(ongoing.list.map((x) => x.id)).toContain(open);
    expect(ongoing.list.map((x) => x.id)).not.toContain(byEvent);
    // the demo's transcripts all close with the end event but today's open chat (server/db/demo/sessions.ts)
    expect(ongoing.list.filter((x) => x.id !== open)).toHaveLength(1);
  });
});

describe('batch status of chat sessions: a result per row', () => {
  it('ended / ongoing: updated, skipped (already so), refused (unknown id; ongoing for a transcript that ends)', async () => {
    const shop = (await s.db.query<{ id: number }>('SELECT id FROM shop ORDER BY id LIMIT 1')).rows[0].id;
    const mk = async (endEvent: boolean, storedEnd: boolean) => {
      const r = await s.db.query<{ id: number }>(
        `INSERT INTO chat_session (shop_id, customer_name, ended_at) VALUES ($1, 'Batch row', ${storedEnd ? 'now()' : 'NULL'}) RETURNING id`,
        [shop],
      );
      if (endEvent) await s.db.query(`INSERT INTO chat_message (session_id, msg_type, sender, content) VALUES ($1, 8, 'system', 'Conversation ended')`, [r.rows[0].id]);
      return r.rows[0].id;
    };
    const open = await mk(false, false);
    const storedEnd = await mk(false, true);
    const byEvent = await mk(true, false);
    const client = await as('intelligent_text.text.session.chat.batch_status');
    const audit0 = await auditMaxId(s);
    // the shape of every batch (server/resources/engine/batch-actions.ts): done, skipped, refused, a result per row
    type Results = Array<{ id: number; ok: boolean; skipped?: boolean; code?: number; msg?: string }>;
    const result = (r: Results[number]) => (r.ok ? (r.skipped ? 'skipped' : 'done') : 'refused');
    const back = (await ok(await client.post('session/batch-status', { ids: [open, storedEnd, byEvent, 999999], status: 'ongoing' }), 'ongoing')) as {
      total: number; done: number; skipped: number; refused: number; results: Results;
    };
    expect(back.results.map((r) => [r.id, result(r)])).toEqual([[open, 'skipped'], [storedEnd, 'done'], [byEvent, 'refused'], [999999, 'refused']]);
    expect([back.total, back.done, back.skipped, back.refused]).toEqual([4, 1, 1, 2]);
    expect(back.results[0].msg).toMatch(/already ongoing/);
    expect(back.results[2].msg).toMatch(/transcript/);
    expect([back.results[2].code, back.results[3].code]).toEqual([40009, 40004]);
    expect((await auditSince(s, audit0)).filter((a) => a.action === 'batch_status').map((a) => Number(a.target_id))).toEqual([storedEnd]);
    const end = (await ok(await client.post('session/batch-status', { ids: [open, byEvent], status: 'ended' }), 'ended')) as { results: Results };
    expect(end.results.map(result)).toEqual(['done', 'skipped']);
    for (const [id, status] of [[open, 'ended'], [storedEnd, 'ongoing'], [byEvent, 'ended']] as const) {
      const d = (await ok(await admin.get('session/detail', { id }), 'detail')) as { status: string };
      expect(d.status, `session ${id}`).toBe(status);
    }
    // more than 100 ids: 40001 on ids, nothing written
    expectFieldError(await client.post('session/batch-status', { ids: Array.from({ length: 101 }, (_, i) => i + 1), status: 'ended' }), 'ids');
  });
});
