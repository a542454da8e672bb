// @db once
/**
 * The privilege ceiling (server/auth/ceiling.ts) on every call where a key can be gained, the
 * audit row of a refused call, schema/detail's one answer for missing and forbidden, the policy
 * for new passwords, and the demo operator created once (issue 12).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refused } from '../../server/auth/ceiling.js';
import { hashPassword } from '../../server/auth/password.js';
import { defineRoutes } from '../../server/http/route.js';
import { DEMO_OPERATOR, DEMO_OPERATOR_MARK, seedCore } from '../../server/db/seed-core.js';
import { ADMIN_EMAIL, startServer, type ApiClient, type TestServer } from './harness.js';
import { NoReply } from '../../server/http/typebox.js';

const A = 'admin_center.admin.permission';
const GOOD = 'amber-kettle-river-7';
/** bilingual: "english / 中文" */
const BILINGUAL = / \/ .*[\u4e00-\u9fff]/u;

let s: TestServer;
let admin: ApiClient;
let superRoleId: number;
/** a role holding every intelligent_text key: far more than the actors below */
let bigRoleId: number;
/** a role holding only keys the actors hold */
let smallRoleId: number;

const permIds = async (keys: string[]): Promise<number[]> =>
  (await s.db.query<{ id: number }>(`SELECT id FROM permissions WHERE (module || '.' || permission_key) = ANY($1::text[]) ORDER BY id`, [keys])).rows.map(
    (r) => r.id,
  );
const rolesOf = async (accountId: number): Promise<number[]> =>
  (await s.db.query<{ role_id: number }>('SELECT role_id FROM account_roles WHERE account_id = $1 ORDER BY role_id', [accountId])).rows.map((r) => r.role_id);
const keysOf = async (c: ApiClient): Promise<string[]> =>
  (await c.ok<{ permissions: Array<{ module: string; permission_key: string }> }>('POST', 'account/role-permissions')).permissions.map(
    (p) => `${p.module}.${p.permission_key}`,
  );
const count = async (sql: string, params: unknown[] = []): Promise<number> => (await s.db.query<{ n: number }>(sql, params)).rows[0].n;

function expectRefused(r: { body: { code: number; msg: string; data: unknown } }, rule: RegExp) {
  expect(r.body.code, r.body.msg).toBe(40003);
  expect(r.body.msg).toMatch(rule);
  expect(r.body.msg).toMatch(BILINGUAL);
}

beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
  superRoleId = (await s.db.query<{ id: number }>('SELECT id FROM roles WHERE is_super_admin LIMIT 1')).rows[0].id;
  const textIds = (await s.db.query<{ id: number }>(`SELECT id FROM permissions WHERE module = 'intelligent_text'`)).rows.map((r) => r.id);
  bigRoleId = (await admin.ok('POST', 'role/create', { name: 'Big text role', permission_ids: textIds })).id;
  smallRoleId = (await admin.ok('POST', 'role/create', { name: 'Small text role', permission_ids: await permIds(['intelligent_text.text_home']) })).id;
});
afterAll(async () => {
  await s?.close();
});

describe('account.update / account.create: roles beyond the ceiling', () => {
  let actor: ApiClient & { accountId: number; roleId: number };
  beforeAll(async () => {
    actor = await s.loginWithKeys([
      'admin_center',
      `${A}.account`,
      `${A}.account.create`,
      `${A}.account.update`,
      `${A}.account.reset_password`,
      'intelligent_text',
      'intelligent_text.text_home',
    ]);
  });

  it('account.update cannot give itself a bigger role or the super-admin role; nothing changes', async () => {
    const before = await keysOf(actor);
    expectRefused(await actor.post('account/update', { id: actor.accountId, role_ids: [actor.roleId, bigRoleId] }), /cannot assign a role .*intelligent_text\./);
    expectRefused(await actor.post('account/update', { id: actor.accountId, role_ids: [actor.roleId, superRoleId] }), /only a super admin may assign a super-admin role/);
    expect(await rolesOf(actor.accountId)).toEqual([actor.roleId]);
    expect(await keysOf(actor)).toEqual(before);
  });

  it('account.update cannot give another account a bigger role, but may give one within its keys', async () => {
    const other = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text_home']);
    expectRefused(await actor.post('account/update', { id: other.accountId, role_ids: [other.roleId, bigRoleId] }), /cannot assign a role/);
    expect(await rolesOf(other.accountId)).toEqual([other.roleId]);
    const ok = await actor.post('account/update', { id: other.accountId, role_ids: [other.roleId, smallRoleId] });
    expect(ok.body.code, ok.body.msg).toBe(10000);
    expect(await rolesOf(other.accountId)).toEqual([other.roleId, smallRoleId].sort((a, b) => a - b));
  });

  it('account.create cannot create an account with a bigger role or the super-admin role', async () => {
    const accounts = await count('SELECT count(*)::int AS n FROM accounts');
    expectRefused(await actor.post('account/create', { email: 'big@example.com', name: 'Big', password: GOOD, role_ids: [bigRoleId] }), /cannot assign a role/);
    expectRefused(await actor.post('account/create', { email: 'sup@example.com', name: 'Sup', password: GOOD, role_ids: [superRoleId] }), /super-admin role/);
    expect(await count('SELECT count(*)::int AS n FROM accounts')).toBe(accounts);
    const ok = await actor.post('account/create', { email: 'small@example.com', name: 'Small', password: GOOD, role_ids: [smallRoleId] });
    expect(ok.body.code, ok.body.msg).toBe(10000);
  });

  it('cannot take over a bigger account: reset its password, change it or disable it', async () => {
    const big = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text_home', 'intelligent_text.text.shop.list']);
    const hash = (await s.db.query<{ password_hash: string }>('SELECT password_hash FROM accounts WHERE id = $1', [big.accountId])).rows[0].password_hash;
    expectRefused(await actor.post('account/reset-password', { id: big.accountId }), /cannot manage an account/);
    expectRefused(await actor.post('account/update', { id: big.accountId, email: 'mine@example.com' }), /cannot manage an account/);
    const superId = (await s.db.query<{ id: number }>('SELECT id FROM accounts WHERE email = $1', [ADMIN_EMAIL])).rows[0].id;
    expectRefused(await actor.post('account/reset-password', { id: superId }), /super admin account/);
    expect((await s.db.query('SELECT password_hash FROM accounts WHERE id = $1', [big.accountId])).rows[0]).toEqual({ password_hash: hash });
    expect((await big.get('User/Get')).body.code).toBe(10000);
  });
});

describe('role create / update beyond the ceiling', () => {
  let actor: ApiClient & { accountId: number; roleId: number };
  beforeAll(async () => {
    actor = await s.loginWithKeys(['admin_center', `${A}.role`, `${A}.role.create`, `${A}.role.update`, `${A}.role.delete`, 'intelligent_text', 'intelligent_text.text_home']);
  });

  it('role create: no key it lacks, no super-admin role; within its keys is fine', async () => {
    const roles = await count('SELECT count(*)::int AS n FROM roles');
    const lacked = await permIds([`${A}.account.delete`, 'intelligent_text.text.shop.list']);
    expectRefused(await actor.post('role/create', { name: 'grab', permission_ids: lacked }), /cannot grant permissions you do not hold/);
    expectRefused(await actor.post('role/create', { name: 'grab2', is_super_admin: true }), /super-admin role/);
    expect(await count('SELECT count(*)::int AS n FROM roles')).toBe(roles);
    const ok = await actor.post('role/create', { name: 'within', permission_ids: await permIds(['intelligent_text.text_home', `${A}.role`]) });
    expect(ok.body.code, ok.body.msg).toBe(10000);
  });

  it('role update: cannot add a key it lacks to its own role, nor touch the super-admin role', async () => {
    const before = await keysOf(actor);
    const own = await s.db.query<{ permission_id: number }>('SELECT permission_id FROM role_permissions WHERE role_id = $1 ORDER BY 1', [actor.roleId]);
    const ownIds = own.rows.map((r) => r.permission_id);
    const lacked = await permIds([`${A}.account.update`]);
    expectRefused(await actor.post('role/update', { id: actor.roleId, permission_ids: [...ownIds, ...lacked] }), /admin_center\.admin\.permission\.account\.update/);
    expectRefused(await actor.post('role/update', { id: actor.roleId, is_super_admin: true }), /super-admin role/);
    expectRefused(await actor.post('role/update', { id: superRoleId, name: 'mine now' }), /super-admin role/);
    expectRefused(await actor.post('role/delete', { id: superRoleId }), /super-admin role/);
    expect(await keysOf(actor)).toEqual(before);
    // renaming a bigger role without touching its keys gains nothing and is allowed (taking keys it
    // lacks away from a bigger role is refused: the ceiling rows of tests/api/matrix.test.ts)
    const renamed = await actor.post('role/update', { id: bigRoleId, name: 'Big text role (renamed)' });
    expect(renamed.body.code, renamed.body.msg).toBe(10000);
  });
});

describe('the permission tree is the super admin\'s alone', () => {
  it('permission.update cannot rename a held permission to take a key; create and delete refused too', async () => {
    const actor = await s.loginWithKeys([
      'admin_center',
      `${A}.permission`,
      `${A}.permission.create`,
      `${A}.permission.update`,
      `${A}.permission.delete`,
      'intelligent_text',
      'intelligent_text.text_home',
    ]);
    const snapshot = async () => (await s.db.query('SELECT id, pid, module, permission_key, permission_name FROM permissions ORDER BY id')).rows;
    const before = await snapshot();
    const beforeKeys = await keysOf(actor);
    const [held] = await permIds(['intelligent_text.text_home']);
    const [wanted] = await permIds([`${A}.account.delete`]);
    // the swap: move the wanted key out of the way, then rename a held permission to it
    expectRefused(await actor.post('permission/update', { id: wanted, permission_key: 'admin.permission.account.delete_old' }), /permission tree/);
    expectRefused(
      await actor.post('permission/update', { id: held, module: 'admin_center', permission_key: 'admin.permission.account.delete' }),
      /only a super admin may change the permission tree/,
    );
    expectRefused(await actor.post('permission/create', { module: 'admin_center', permission_key: 'x.mine', permission_name: 'x', permission_type: 3 }), /permission tree/);
    expectRefused(await actor.post('permission/delete', { id: wanted }), /permission tree/);
    expect(await snapshot()).toEqual(before);
    expect(await keysOf(actor)).toEqual(beforeKeys);
    // the super admin still edits the tree
    const made = await admin.ok('POST', 'permission/create', { module: 'admin_center', permission_key: 'x.sa', permission_name: 'x', permission_type: 3 });
    await admin.ok('POST', 'permission/delete', { id: made.id });
  });
});

describe('a refused call is audited', () => {
  it('writes one row (actor, route, reason, target) although the transaction rolled back', async () => {
    const actor = await s.loginWithKeys(['admin_center', `${A}.account`, `${A}.account.update`]);
    const last = await count('SELECT COALESCE(max(id), 0)::int AS n FROM audit_logs');
    expectRefused(await actor.post('account/update', { id: actor.accountId, name: 'Renamed', role_ids: [actor.roleId, bigRoleId] }), /cannot assign/);
    // nothing of the update was written
    expect((await s.db.query('SELECT name FROM accounts WHERE id = $1', [actor.accountId])).rows[0]).not.toEqual({ name: 'Renamed' });
    // a refusal of the access check itself (no key for role/list) is audited the same way
    expect((await actor.get('role/list')).body).toEqual({ code: 40003, msg: 'forbidden', data: null });
    const rows = (
      await s.db.query<{ actor_id: number; actor_email: string; action: string; resource: string; target_id: string | null; after: { route: string; reason: string } }>(
        'SELECT actor_id, actor_email, action, resource, target_id, after FROM audit_logs WHERE id > $1 ORDER BY id',
        [last],
      )
    ).rows;
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ actor_id: actor.accountId, action: 'forbidden', resource: 'account', target_id: String(actor.accountId) });
    expect(rows[0].after.route).toBe('POST /api/admin/account/update');
    expect(rows[0].after.reason).toMatch(/cannot assign a role/);
    expect(rows[1]).toMatchObject({ actor_id: actor.accountId, action: 'forbidden', resource: 'role', target_id: null, after: { route: 'GET /api/admin/role/list', reason: 'forbidden' } });
    // visible in the audit log to whoever reads it
    const listed = await admin.ok('GET', 'audit-log/list', { action: 'forbidden', actor: String(actor.accountId) });
    expect(listed.total).toBe(2);
  });
});

describe('a refusal after a write', () => {
  it('rolls the write back and keeps the audit row', async () => {
    const { routes: sessionRoutes } = await import('../../server/routes/session.js');
    const probe = defineRoutes([
      {
        method: 'POST',
        path: 'probe/refuse-after-write',
        access: 'login',
        reply: NoReply,
        async handler(ctx) {
          await ctx.db.query("INSERT INTO roles (name) VALUES ('written before the refusal')");
          await ctx.audit({ action: 'create', resource: 'role', after: { name: 'written before the refusal' } });
          throw refused('refused after a write', '写入后被拒绝');
        },
      },
    ]);
    const t = await startServer({ routes: [...sessionRoutes, ...probe] });
    try {
      const c = await t.login();
      const r = await c.post('probe/refuse-after-write', { id: 7 });
      expect(r.body).toEqual({ code: 40003, msg: 'refused after a write / 写入后被拒绝', data: null });
      expect((await t.db.query("SELECT 1 FROM roles WHERE name = 'written before the refusal'")).rows).toHaveLength(0);
      const audit = await t.db.query<{ action: string; resource: string; target_id: string; after: unknown }>(
        "SELECT action, resource, target_id, after FROM audit_logs WHERE resource <> 'session' ORDER BY id",
      );
      expect(audit.rows).toEqual([
        { action: 'forbidden', resource: 'probe', target_id: '7', after: { route: 'POST /api/admin/probe/refuse-after-write', reason: 'refused after a write / 写入后被拒绝' } },
      ]);
    } finally {
      await t.close();
    }
  });
});

describe('schema/detail', () => {
  it('answers a forbidden schema exactly like a missing one', async () => {
    const textOnly = await s.loginWithKeys(['intelligent_text', 'intelligent_text.text_home']);
    const forbidden = await textOnly.get('schema/detail', { id: 'admin_center.account.form' });
    const missing = await textOnly.get('schema/detail', { id: 'admin_center.account.nope' });
    expect(forbidden.status).toBe(missing.status);
    expect(forbidden.body.code).toBe(40004);
    expect({ ...forbidden.body, msg: forbidden.body.msg.replaceAll('admin_center.account.form', 'ID') }).toEqual({
      ...missing.body,
      msg: missing.body.msg.replaceAll('admin_center.account.nope', 'ID'),
    });
    // the super admin opens it
    expect((await admin.get('schema/detail', { id: 'admin_center.account.form' })).body.code).toBe(10000);
  });
});

describe('password policy for new passwords (ASVS 5.0 V6.2)', () => {
  const fieldError = (r: { body: { code: number; data: unknown } }, field: string, message: RegExp) => {
    expect(r.body.code).toBe(40001);
    const errors = (r.body.data as { errors: Array<{ field: string; message: string }> }).errors;
    expect(errors).toEqual([expect.objectContaining({ field: expect.stringContaining(field) })]);
    expect(errors[0].message).toMatch(message);
  };

  it('account/create: at least 12 characters, not the email, not a common password', async () => {
    const accounts = await count('SELECT count(*)::int AS n FROM accounts');
    const create = (email: string, password: string) => admin.post('account/create', { email, name: 'P', password });
    fieldError(await create('p1@example.com', 'elevenchars'), 'password', /12/);
    fieldError(await create('maria.lopez@example.com', 'Maria.Lopez-2026-pw'), 'password', /email/);
    fieldError(await create('p2@example.com', 'xx-p2@example.com-xx'), 'password', /email/);
    for (const common of ['qwerty123456', 'Password2026!', '1q2w3e4r5t6y', 'aaaaaaaaaaaa', 'abcdefghijkl']) {
      const r = await create('p3@example.com', common);
      expect(r.body.code, common).toBe(40001);
      expect(r.body.msg, common).toMatch(BILINGUAL);
    }
    expect(await count('SELECT count(*)::int AS n FROM accounts')).toBe(accounts);
    expect((await create('p4@example.com', GOOD)).body.code).toBe(10000);
  });

  it('user/update-pwd and account/reset-password follow it; a generated reset password passes', async () => {
    const c = await s.loginWithKeys(['intelligent_text'], { email: 'pwd.owner@example.com', password: 'limited-password' });
    fieldError(await c.post('user/update-pwd', { old_password: 'limited-password', new_password: 'iloveyou1234' }), 'new_password', /common/);
    fieldError(await c.post('user/update-pwd', { old_password: 'limited-password', new_password: 'pwd.owner-secret' }), 'new_password', /email/);
    fieldError(await admin.post('account/reset-password', { id: c.accountId, password: 'football2026' }), 'password', /common/);
    expect((await s.login('pwd.owner@example.com', 'limited-password')).token).toBeTruthy();
    const gen = await admin.ok('POST', 'account/reset-password', { id: c.accountId });
    expect(gen.generated).toBe(true);
    await s.login('pwd.owner@example.com', gen.password);
  });

  it('signing in with an existing shorter password keeps working', async () => {
    const acc = await s.db.query<{ id: number }>("INSERT INTO accounts (email, name, password_hash) VALUES ('old@example.com', 'Old', $1) RETURNING id", [
      await hashPassword('old-pw-8'),
    ]);
    const c = await s.login('old@example.com', 'old-pw-8');
    expect((await c.get('User/Get')).body.data.id).toBe(acc.rows[0].id);
  });
});

describe('demo operator', () => {
  const operatorRow = async () =>
    (await s.db.query<{ id: number; password_hash: string }>('SELECT id, password_hash FROM accounts WHERE email = $1', [DEMO_OPERATOR.email])).rows[0];

  it('is created only with demo data, once, with a generated password shown once; never recreated after deletion', async () => {
    const opts = { adminEmail: ADMIN_EMAIL, demo: false };
    expect((await seedCore(s.db, opts)).demoAccounts).toEqual([]);
    expect(await operatorRow()).toBeUndefined();

    const first = await seedCore(s.db, { ...opts, demo: true });
    expect(first.demoAccounts).toHaveLength(1);
    const { email, password } = first.demoAccounts[0];
    expect(email).toBe(DEMO_OPERATOR.email);
    expect(password).not.toBe('operator-demo-2026');
    expect(password.length).toBeGreaterThanOrEqual(16);
    const op = await s.login(email, password);
    expect(await keysOf(op)).toContain('intelligent_text.text.shop.list');

    // the next start shows nothing and changes nothing
    const hash = (await operatorRow()).password_hash;
    expect((await seedCore(s.db, { ...opts, demo: true })).demoAccounts).toEqual([]);
    expect((await operatorRow()).password_hash).toBe(hash);

    // deleted by an admin: stays deleted
    await admin.ok('POST', 'account/delete', { id: (await operatorRow()).id });
    expect((await seedCore(s.db, { ...opts, demo: true })).demoAccounts).toEqual([]);
    expect(await operatorRow()).toBeUndefined();
    expect(await count('SELECT count(*)::int AS n FROM app_setting WHERE key = $1', [DEMO_OPERATOR_MARK])).toBe(1);
  });

  it('a demo operator from before the marker that still has the published password gets a new one', async () => {
    await s.db.query('DELETE FROM app_setting WHERE key = $1', [DEMO_OPERATOR_MARK]);
    await s.db.query("INSERT INTO accounts (email, name, password_hash) VALUES ($1, 'Demo', $2)", [DEMO_OPERATOR.email, await hashPassword('operator-demo-2026')]);
    const r = await seedCore(s.db, { adminEmail: ADMIN_EMAIL, demo: false, demoPassword: 'chosen-demo-password-1' });
    expect(r.demoAccounts).toEqual([expect.objectContaining({ email: DEMO_OPERATOR.email, password: 'chosen-demo-password-1' })]);
    expect((await s.anon().post('user/login', { email: DEMO_OPERATOR.email, password: 'operator-demo-2026' })).body.code).toBe(40001);
    await s.login(DEMO_OPERATOR.email, 'chosen-demo-password-1');
    expect((await seedCore(s.db, { adminEmail: ADMIN_EMAIL, demo: true })).demoAccounts).toEqual([]);
  });
});
