import { afterEach, describe, expect, it } from 'vitest';
import type { Access, RouteDef, SessionUser } from '../http/route.js';
import { checkPermissionReach, deriveGrants, grantRefusal, schemaCalls, schemaGrantCheck } from './grants.js';
import { SchemaStore, setSchemaStore } from './store.js';
import type { ParsedSchema } from './validate.js';

const schema = (id: string, kind: string, doc: Record<string, unknown>, file = `schemas/pages/t/${id}.json`): ParsedSchema => ({
  file,
  id,
  kind,
  version: 1,
  schemaVersion: 1,
  hash: `h-${id}-${JSON.stringify(doc).length}`,
  permission: typeof doc.permission === 'string' ? doc.permission : undefined,
  routes: [],
  doc: { id, kind, ...doc },
});

const route = (api: string, access: Access, base?: RouteDef['base']): Pick<RouteDef, 'method' | 'path' | 'base' | 'access'> => {
  const [method, path] = api.split(' ') as ['GET' | 'POST', string];
  return { method, path, access, ...(base ? { base } : {}) };
};

const user = (keys: string[]): SessionUser => ({ id: 1, email: 'x@example.com', name: 'x', isSuperAdmin: false, keys: new Set(keys), sessionId: 1 });

/** a list page with key `m.page`: its rows from GET thing/list, a shop picker, a delete button, an edit form */
const listPage = schema('m.things', 'list', {
  permission: 'm.page',
  data: { api: 'GET thing/list' },
  filters: { type: 'object', properties: { shop_id: { 'x-component': 'RemoteSelect', 'x-component-props': { api: 'GET shop-list' } } } },
  rowActions: [
    { key: 'del', type: 'request', api: 'POST thing/delete', permission: 'm.page.delete' },
    { key: 'ping', type: 'request', api: 'POST thing/ping' },
    { key: 'export', type: 'download', api: 'GET thing/export', permission: 'm.page.export' },
    { key: 'edit', type: 'openForm', form: 'm.thing_form', mode: 'edit', permission: 'm.page.update' },
  ],
});
const form = schema(
  'm.thing_form',
  'form',
  {
    load: { api: 'GET thing/detail' },
    modes: { edit: { permission: 'm.page.update', submit: { api: 'POST thing/update' } } },
    schema: { type: 'object', properties: { owner: { 'x-component': 'RemoteSelect', 'x-component-props': { api: 'GET owner/options' } } } },
  },
  'schemas/forms/t/thing.form.json',
);

const routes = [
  route('GET thing/list', { permission: 'm.other' }), // the page's key is missing: issue 11
  route('GET shop-list', { permission: 'm.shops' }),
  route('POST thing/delete', { permission: 'm.page.delete' }),
  route('POST thing/ping', { permission: 'm.other' }),
  route('GET thing/export', { permission: 'm.page' }),
  route('GET thing/detail', { permission: ['m.page', 'm.page.update'] }),
  route('POST thing/update', { permission: 'm.page.update' }),
  route('GET owner/options', { permission: 'm.owners' }),
];

afterEach(() => setSchemaStore(null));

describe('schema calls', () => {
  it('names the keys on each way to a call, outermost first', () => {
    const calls = schemaCalls([listPage, form]);
    const at = (id: string, pointer: string) => calls.find((c) => c.schemaId === id && c.pointer === pointer)!;
    expect(at('m.things', '/data/api').paths).toEqual([[{ key: 'm.page', via: 'page' }]]);
    expect(at('m.things', '/rowActions/0/api').keys).toEqual(['m.page.delete']);
    expect(at('m.things', '/rowActions/1/api').keys).toEqual(['m.page']);
    // a form opened by a page's action: the page's key, the action's, the mode's
    expect(at('m.thing_form', '/load/api').paths).toEqual([
      [
        { key: 'm.page', via: 'page' },
        { key: 'm.page.update', via: 'element' },
        { key: 'm.page.update', via: 'mode' },
      ],
    ]);
  });
});

describe('the grant table', () => {
  it("grants a page's read calls to its key, only where the route's keys do not serve that way", () => {
    const t = deriveGrants([listPage, form], routes);
    expect([...t.keys()].sort()).toEqual(['GET owner/options', 'GET shop-list', 'GET thing/list']);
    expect([...t.get('GET thing/list')!]).toEqual(['m.page']);
    expect([...t.get('GET shop-list')!]).toEqual(['m.page']);
    // the form's option source: the innermost key of the way (the mode's), not the page's
    expect([...t.get('GET owner/options')!]).toEqual(['m.page.update']);
  });

  it('never grants a POST, an admin_center route, or a route that is not { permission }', () => {
    expect(grantRefusal(route('POST thing/ping', { permission: 'm.other' }))).toMatch(/POST/);
    expect(grantRefusal(route('GET account/list', { permission: 'admin_center.admin.permission.account' }))).toMatch(/admin_center/);
    expect(grantRefusal(route('GET job/list', { permission: 'm.other' }))).toMatch(/admin_center/);
    expect(grantRefusal(route('GET thing/mixed', { permission: ['m.page', 'admin_center.admin.job'] }))).toMatch(/admin_center/);
    expect(grantRefusal(route('GET thing/open', 'login'))).toMatch(/'login'/);
    expect(grantRefusal(route('GET thing/open', 'public'))).toMatch(/'public'/);
    expect(grantRefusal(route('POST batch', { service: 'ingest' }))).toMatch(/service/);
    expect(grantRefusal(route('GET thing/list', { permission: 'm.other' }, 'common'))).toMatch(/admin/);
    expect(grantRefusal(route('GET thing/list', { permission: 'm.other' }))).toBeNull();

    const page = schema('m.admin_peek', 'list', {
      permission: 'm.page',
      data: { api: 'GET account/list' },
      rowActions: [{ key: 'x', type: 'request', api: 'POST account/delete', permission: 'm.page' }],
    });
    const t = deriveGrants([page], [route('GET account/list', { permission: 'admin_center.admin.permission.account' }), route('POST account/delete', { permission: 'admin_center.admin.permission.account.delete' })]);
    expect(t.size).toBe(0);
  });
});

describe('schemas:check: a page permission reaches its calls', () => {
  it('passes when the table or the route serves every way', () => {
    const ok = routes.map((r) => (r.path === 'thing/ping' ? route('POST thing/ping', { permission: ['m.other', 'm.page'] }) : r));
    expect(checkPermissionReach([listPage, form], ok)).toEqual([]);
  });

  it('fails on a POST the page key does not reach, naming file, pointer and reason', () => {
    const problems = checkPermissionReach([listPage, form], routes);
    expect(problems).toHaveLength(1);
    expect(problems[0].file).toBe('schemas/pages/t/m.things.json');
    expect(problems[0].pointer).toBe('/rowActions/1/api');
    expect(problems[0].reason).toContain('POST thing/ping is refused to a user holding page "m.page"');
    expect(problems[0].reason).toContain('"m.other"');
    expect(problems[0].reason).toContain('schemas grant read (GET) calls only');
  });

  it('fails on an admin_center read the page key does not reach', () => {
    const page = schema('m.admin_peek', 'list', { permission: 'm.page', data: { api: 'GET audit-log/all' } });
    const problems = checkPermissionReach([page], [route('GET audit-log/all', { permission: 'admin_center.admin.permission.audit_logs' })]);
    expect(problems.map((p) => [p.pointer, /admin_center route/.test(p.reason)])).toEqual([['/data/api', true]]);
  });

  it('does not report login and public routes, and leaves unknown APIs to the reference check', () => {
    const page = schema('m.open', 'list', { permission: 'm.page', data: { api: 'GET me' }, toolbar: [{ key: 'x', type: 'request', api: 'POST nowhere' }] });
    expect(checkPermissionReach([page], [route('GET me', 'login')])).toEqual([]);
  });

  it('a form reached through a page whose key the route lists needs no grant (any key held on the way will do)', () => {
    const f = schema('m.f', 'form', { modes: { add: { permission: 'm.page.add', submit: { api: 'POST thing/create' } } }, schema: { type: 'object', properties: {} } });
    const p = schema('m.p', 'list', { permission: 'm.page', data: { api: 'GET thing/list' }, toolbar: [{ key: 'add', type: 'openForm', form: 'm.f', mode: 'add', permission: 'm.page.add' }] });
    const rs = [route('GET thing/list', { permission: 'm.page' }), route('POST thing/create', { permission: ['m.page', 'm.other'] })];
    expect(checkPermissionReach([f, p], rs)).toEqual([]);
    expect(deriveGrants([f, p], rs).size).toBe(0);
  });
});

describe('the access check', () => {
  it('follows the schema store: a swapped-in schema grants, a removed one no longer does', () => {
    const grants = schemaGrantCheck(routes);
    const list = routes[0];
    expect(grants.allows(list, user(['m.page']))).toBe(false); // no schemas loaded: nothing granted
    const store = new SchemaStore([listPage, form]);
    setSchemaStore(store);
    expect(grants.allows(list, user(['m.page']))).toBe(true);
    expect(grants.allows(list, user(['m.page.update']))).toBe(false);
    expect(grants.allows(route('POST thing/ping', { permission: 'm.other' }), user(['m.page']))).toBe(false);
    store.remove(listPage.id);
    expect(grants.allows(list, user(['m.page']))).toBe(false);
  });
});
