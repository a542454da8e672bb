// @db both — a refused call writes nothing (transaction rollback on each engine)
/**
 * Bad input gets a clear envelope and loses nothing (issue 12, item 4): NUL characters,
 * impossible dates, out-of-range ids, malformed multipart, oversize headers, deletes of what is
 * still in use. Never HTTP 500; nothing written; the server still answers.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(async () => s?.close());

const count = async (table: string) => (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;

describe('bad input', () => {
  it('refuses a NUL character in a body with 40001 naming the field, writing nothing', async () => {
    const before = await count('roles');
    const r = await admin.post('role/create', { name: 'ops\u0000team', remark: 'x' });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(40001);
    expect(r.body.data.errors[0].field).toBe('name');
    expect(await count('roles')).toBe(before);
  });

  it('refuses a NUL character in a query and in a nested key', async () => {
    const q = await admin.get('role/list', { keyword: 'a\u0000' });
    expect(q.body.code).toBe(40001);
    expect(q.body.data.errors[0].field).toBe('keyword');
    const nested = await admin.post('role/create', { name: 'x', ['re\u0000mark']: 'y' });
    expect(nested.body.code).toBe(40001);
  });

  it('refuses impossible dates in list filters', async () => {
    for (const d of ['2026-02-30', '2026-13-01', '2026-01-01 25:00:00']) {
      const r = await admin.get('learn-doc/list', { created_at_from: d });
      expect(r.status, d).toBe(200);
      expect(r.body.code, d).toBe(40001);
      expect(r.body.data.errors[0].field).toBe('created_at_from');
    }
    expect((await admin.get('learn-doc/list', { created_at_from: '2024-02-29' })).body.code).toBe(10000);
  });

  it('refuses out-of-range ids', async () => {
    const r = await admin.get('role/detail', { id: '99999999999' });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(40001);
    expect(r.body.data.errors[0].field).toBe('id');
  });

  it('answers a malformed multipart upload with 40001 and stores nothing', async () => {
    const before = await count('learn_doc');
    const res = await admin.request('POST', 'learn-doc/create', {
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello',
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(40001);
    expect(await count('learn_doc')).toBe(before);
  });

  it('answers oversize headers with an envelope (431)', async () => {
    const url = new URL(s.url);
    const reply = await new Promise<string>((resolve, reject) => {
      const sock = net.connect(Number(url.port), url.hostname, () => {
        sock.write(`GET /api/admin/role/list HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
      });
      let text = '';
      sock.on('data', (d) => (text += d));
      sock.on('end', () => resolve(text));
      sock.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1.1 431/);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 40001 });
    expect((await admin.get('role/list')).body.code).toBe(10000);
  });

  it('refuses to delete a role still held by an account with 40009, keeping it', async () => {
    const role = await admin.ok('POST', 'role/create', { name: 'in-use role' });
    const roleId = role.id ?? role;
    const acc = await s.db.query<{ id: number }>(
      `INSERT INTO accounts (email, name, password_hash) VALUES ('inuse@example.com', 'in use', 'x') RETURNING id`,
    );
    await s.db.query('INSERT INTO account_roles (account_id, role_id) VALUES ($1, $2)', [acc.rows[0].id, roleId]);
    const r = await admin.post('role/delete', { id: roleId });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(40009);
    expect((await s.db.query('SELECT 1 FROM roles WHERE id = $1', [roleId])).rows).toHaveLength(1);
  });
});
