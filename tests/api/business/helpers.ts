import { expect } from 'vitest';
import { startServer, type ApiClient, type ApiResponse, type TestServer } from '../harness.js';

/** One server with the demo data, an admin, and clients that hold exactly one key (cached). */
export interface BizEnv {
  s: TestServer;
  admin: ApiClient;
  /** an account holding only a key unrelated to the business routes */
  outsider: ApiClient;
  as(key: string): Promise<ApiClient>;
  fx: Fixtures;
}

export interface Fixtures {
  shopId: number;
  otherShopId: number;
  douyinShopId: number;
  userId: number;
  userWithShopId: number;
  planId: number;
  planOrderId: number;
  materialId: number;
  draftNoticeId: number;
  pushedNoticeId: number;
  policyId: number;
  learnPolicyId: number;
  learnPolicyProductId: number;
  productDescId: number;
  assistantId: number;
  douyinProductId: number;
  docId: number;
  orderId: number;
}

const one = async (s: TestServer, sql: string): Promise<number> => {
  const r = await s.db.query<{ id: number }>(sql);
  if (!r.rows[0]) throw new Error(`no demo row for: ${sql}`);
  return Number(r.rows[0].id);
};

export async function startBiz(): Promise<BizEnv> {
  const s = await startServer({ seedDemo: true });
  const admin = await s.login();
  const outsider = await s.loginWithKeys(['admin_center.admin.permission.audit_logs']);
  const clients = new Map<string, Promise<ApiClient>>();
  const fx: Fixtures = {
    shopId: await one(s, `SELECT id FROM shop WHERE type = 1 AND id IN (SELECT shop_id FROM policy) ORDER BY id LIMIT 1`),
    otherShopId: await one(s, `SELECT id FROM shop WHERE type = 1 ORDER BY id DESC LIMIT 1`),
    douyinShopId: await one(s, `SELECT id FROM shop WHERE type = 2 ORDER BY id LIMIT 1`),
    userId: await one(s, `SELECT id FROM merchant_user ORDER BY id LIMIT 1`),
    userWithShopId: await one(s, `SELECT user_id AS id FROM shop WHERE type = 1 AND user_id IS NOT NULL ORDER BY id LIMIT 1`),
    planId: await one(s, `SELECT id FROM plan ORDER BY id LIMIT 1`),
    planOrderId: await one(s, `SELECT id FROM plan_order ORDER BY id LIMIT 1`),
    materialId: await one(s, `SELECT id FROM learn_material WHERE ticket_learn = 0 ORDER BY id LIMIT 1`),
    draftNoticeId: await one(s, `SELECT id FROM notification WHERE status = 0 ORDER BY id LIMIT 1`),
    pushedNoticeId: await one(s, `SELECT id FROM notification WHERE status = 1 ORDER BY id LIMIT 1`),
    policyId: await one(s, `SELECT id FROM policy ORDER BY id LIMIT 1`),
    learnPolicyId: await one(s, `SELECT id FROM learn_policy ORDER BY id LIMIT 1`),
    learnPolicyProductId: await one(s, `SELECT id FROM learn_policy_product ORDER BY id LIMIT 1`),
    productDescId: await one(s, `SELECT id FROM product_desc WHERE status <> 1 ORDER BY id LIMIT 1`),
    assistantId: await one(s, `SELECT id FROM chat_assistant ORDER BY id LIMIT 1`),
    douyinProductId: await one(s, `SELECT id FROM douyin_product ORDER BY id LIMIT 1`),
    docId: await one(s, `SELECT id FROM learn_doc WHERE status = 1 ORDER BY id LIMIT 1`),
    orderId: await one(s, `SELECT id FROM shop_order ORDER BY id LIMIT 1`),
  };
  return {
    s,
    admin,
    outsider,
    fx,
    as(key: string) {
      if (!clients.has(key)) clients.set(key, s.loginWithKeys([key]));
      return clients.get(key)!;
    },
  };
}

export async function count(s: TestServer, table: string): Promise<number> {
  return (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
}

/** A fingerprint of a table (row count + sum of updated_at/ids) to prove nothing changed. */
export async function fingerprint(s: TestServer, table: string): Promise<string> {
  const cols = await s.db.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'updated_at'`,
    [table],
  );
  const upd = cols.rows.length ? `, max(updated_at)::text AS u` : '';
  const r = await s.db.query(`SELECT count(*)::int AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS h${upd} FROM ${table} t`);
  return JSON.stringify(r.rows[0]);
}

export interface AuditRow {
  id: number;
  action: string;
  resource: string;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  actor_email: string;
}

/** The audit rows written after `afterId`, oldest first. */
export async function auditSince(s: TestServer, afterId: number): Promise<AuditRow[]> {
  return (await s.db.query<AuditRow>(`SELECT id, action, resource, target_id, before, after, actor_email FROM audit_logs WHERE id > $1 ORDER BY id`, [afterId])).rows;
}

/**
 * The newest audit row of a change made by a caller: refused calls are audited too (action
 * 'forbidden'), and the work engine audits what its jobs do (actor 'system': demo tasks that
 * start and finish by themselves while a test runs); neither is counted here.
 */
export async function auditMaxId(s: TestServer): Promise<number> {
  return (await s.db.query<{ n: number }>(`SELECT coalesce(max(id), 0)::int AS n FROM audit_logs WHERE action <> 'forbidden' AND actor_email <> 'system'`)).rows[0].n;
}

export function expectOk(r: ApiResponse, what: string) {
  expect(r.body.code, `${what}: ${r.body.msg}`).toBe(10000);
}

export function expectFieldError(r: ApiResponse, field: string) {
  expect(r.body.code, JSON.stringify(r.body)).toBe(40001);
  const fields = ((r.body.data as { errors?: Array<{ field: string }> })?.errors ?? []).map((e) => e.field);
  expect(fields, JSON.stringify(r.body)).toContain(field);
}

/** A multipart body with one file and some fields. */
export function multipart(file: { name: string; data: Buffer | string; type?: string } | null, fields: Record<string, string> = {}) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append('file', new Blob([typeof file.data === 'string' ? file.data : new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.name);
  return fd;
}

/** POST a FormData through the client's cookies and token. */
export async function postForm(c: ApiClient, path: string, fd: FormData): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  if (c.cookies.size) headers.cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (c.token) headers['admin-token'] = c.token;
  const res = await fetch(c.url(path), { method: 'POST', headers, body: fd });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { code: -1, msg: text, data: null };
  }
  return { status: res.status, body, headers: res.headers };
}
