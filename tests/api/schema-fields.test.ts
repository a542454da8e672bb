// @db once
/** A form's schema/detail carries the body schemas of the routes it submits to (real schemas). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness.js';

let s: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  s = await startServer();
  admin = await s.login();
});
afterAll(async () => s?.close());

describe('schema/detail fields', () => {
  it('serves the account form with the server-side bounds of account/create and account/update', async () => {
    const r = await admin.get('schema/detail', { id: 'admin_center.account.form' });
    expect(r.body.code).toBe(10000);
    const fields = r.body.data.fields;
    expect(fields.properties.email).toMatchObject({ format: 'email' });
    expect(fields.properties.password.minLength).toBeGreaterThanOrEqual(8);
    expect(fields.required).toContain('email');
  });

  it('serves no fields for a list page', async () => {
    const list = (await admin.get('schema/list')).body.data.list as Array<{ id: string; kind: string }>;
    const page = list.find((x) => x.kind === 'list')!;
    const r = await admin.get('schema/detail', { id: page.id });
    expect(r.body.data.fields).toBeUndefined();
  });
});
