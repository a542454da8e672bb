/**
 * The dev watch runs the reference checks of schemas:check and refuses a broken edit: the last
 * good version stays served (store and GET schema/detail), the error names file, JSON pointer
 * and reason (log and GET schema/watch-status), and a fixed edit is served and clears it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEXT_KEYS } from '../../schemas/meta/src/index.js';
import { FORM_FILE, LIST_FILE, makeFixture, type Fixture } from '../../scripts/lib/test-fixture.js';
import type { RouteDef, SessionUser } from '../http/route.js';
import { registerErrorHandling } from '../plugins/errors.js';
import { routes as watchRoutes } from '../routes/dev-schema-watch.js';
import { routes as schemaRoutes } from '../routes/schema.js';
import { readSchemas } from './loader.js';
import { formatProblem } from './problems.js';
import { SchemaStore, setSchemaStore } from './store.js';
import { addedProblems, watchSchemas, type SchemaWatcher } from './watch.js';
import { PROJECT_ROOT, projectInputs, referenceChecks, type ReferenceInputs } from './watch-checks.js';

const until = async (cond: () => boolean, ms = 8000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

interface Session {
  store: SchemaStore;
  watcher: SchemaWatcher;
  errors: string[];
  infos: string[];
}

/**
 * Loads a tree as the server does and watches it. `clean`: the tree must have no problem (a
 * fixture); the project copy is whatever the working tree holds (other work in progress may
 * leave files invalid: the assertions only look at the files a test edits).
 */
async function startWatch(root: string, inputs: ReferenceInputs | Promise<ReferenceInputs>, clean: boolean): Promise<Session> {
  const schemasDir = path.join(root, 'schemas');
  const { schemas, problems, meta } = await readSchemas(schemasDir);
  if (clean) expect(problems.map(formatProblem)).toEqual([]);
  const store = new SchemaStore(schemas, TEXT_KEYS);
  setSchemaStore(store);
  const errors: string[] = [];
  const infos: string[] = [];
  const watcher = watchSchemas(
    store,
    schemasDir,
    meta,
    { info: (m) => infos.push(m), error: (m) => errors.push(m) },
    { checks: Promise.resolve(inputs).then(referenceChecks) },
  );
  await watcher.settled();
  return { store, watcher, errors, infos };
}

/** Writes `file`, waits until the watch has reacted (an error logged or the hash of `id` changed). */
async function change(s: Session, root: string, file: string, text: string, id: string): Promise<'refused' | 'served'> {
  const errorsBefore = s.errors.length;
  const hashBefore = s.store.get(id)?.hash;
  writeFileSync(path.join(root, file), text);
  await until(() => s.errors.length > errorsBefore || s.store.get(id)?.hash !== hashBefore);
  await s.watcher.settled();
  return s.errors.length > errorsBefore ? 'refused' : 'served';
}

describe('dev watch on a copy of the project schemas (schemas:check inputs)', () => {
  const FILE = 'schemas/pages/panda_descendant/lab-users.json';
  const ID = 'panda_descendant.lab_user_list';
  const SUPER: SessionUser = { id: 1, email: 's@x', name: 's', isSuperAdmin: true, keys: new Set(), sessionId: 1 };
  let root: string;
  let good: string;
  let s: Session;
  let app: FastifyInstance;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'schemas-watch-'));
    cpSync(path.join(PROJECT_ROOT, 'schemas'), path.join(root, 'schemas'), { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'src/locales'), path.join(root, 'src/locales'), { recursive: true });
    good = readFileSync(path.join(root, FILE), 'utf8');
    s = await startWatch(root, projectInputs(root), false);
    app = Fastify();
    registerErrorHandling(app);
    for (const r of [...schemaRoutes, ...watchRoutes] as RouteDef[]) {
      app.get(`/api/admin/${r.path}`, async (req, reply) => {
        const ctx = { db: null as never, user: SUPER, query: req.query as Record<string, unknown>, body: {}, req, reply, audit: async () => {} };
        if (r.raw) {
          await r.handler(ctx);
          return reply;
        }
        return { code: 10000, msg: 'ok', data: await r.handler(ctx) };
      });
    }
    await app.ready();
  }, 120_000);

  afterAll(async () => {
    s?.watcher.close();
    await app?.close();
    setSchemaStore(null);
    rmSync(root, { recursive: true, force: true });
  });

  const served = async () => {
    const r = await app.inject({ method: 'GET', url: `/api/admin/schema/detail?id=${ID}` });
    expect(r.statusCode).toBe(200);
    return r.json().data.schema as Record<string, any>;
  };
  /** the watch status, limited to the problems of the file under test */
  const status = async () => {
    const d = (await app.inject({ method: 'GET', url: '/api/admin/schema/watch-status' })).json().data;
    const mine = (ps: Array<{ file: string }>) => ps.filter((p) => p.file === FILE || p.file.startsWith('src/contract/'));
    return { ...d, refused: mine(d.refused), standing: mine(d.standing) };
  };
  const edited = (fn: (d: Record<string, any>) => void, version = 2) => {
    const d = JSON.parse(good) as Record<string, any>;
    fn(d);
    d.version = version;
    return `${JSON.stringify(d, null, 2)}\n`;
  };

  it('starts with the file under test served and no problem in it', async () => {
    expect(s.store.get(ID)?.file).toBe(FILE);
    expect(await status()).toEqual({ watching: true, refused: [], standing: [] });
  });

  const cases: Array<[string, (d: Record<string, any>) => void, string, string]> = [
    ['an unknown widget', (d) => (d.columns[5].widget = 'DateTimeX'), '/columns/5/widget', 'unknown widget "DateTimeX" (not in src/contract/widget-names.ts)'],
    ['an unknown enum', (d) => (d.columns[4].enum = 'account_statuz'), '/columns/4/enum', 'unknown enum "account_statuz" (no schemas/enums/account_statuz.json)'],
    ['an unknown API path', (d) => (d.data.api = 'GET lab/user/lists'), '/data/api', 'unknown API "GET lab/user/lists" (no such route on the server)'],
    ['a wrong API method', (d) => (d.data.api = 'POST lab/user/list'), '/data/api', 'unknown API "POST lab/user/list" (no such route on the server)'],
    [
      // (not the page's own `permission`: a menu page declares that key, issue 11)
      'an unknown permission key',
      (d) => (d.toolbar[0].permission = 'panda_descendant.lab.account.users'),
      '/toolbar/0/permission',
      'unknown permission key "panda_descendant.lab.account.users" (not in the permission manifest)',
    ],
    ['an unknown referenced form id', (d) => (d.toolbar[0].form = 'panda_descendant.lab_user_from'), '/toolbar/0/form', 'unknown schema "panda_descendant.lab_user_from"'],
    ['a missing i18n key', (d) => (d.title = 'lab.user.no_such_title'), '/title', 'i18n key "lab.user.no_such_title" missing in zh-CN and en-US'],
  ];

  for (const [kind, breakIt, pointer, reason] of cases) {
    it(`refuses an edit with ${kind}, keeps serving the last good version, and serves the fixed edit`, async () => {
      const before = await served();
      expect(await change(s, root, FILE, edited(breakIt), ID)).toBe('refused');
      const line = `${FILE}#${pointer}: ${reason}`;
      // (a wrong API also reports the list's sortable columns, as schemas:check does)
      expect(s.errors.at(-1)).toMatch(new RegExp(`^${FILE} is invalid, keeping the previous version:\n`));
      expect(s.errors.at(-1)!.split('\n')).toContain(line);
      expect(await served()).toEqual(before);
      const st = await status();
      expect(st.refused).toContainEqual({ file: FILE, pointer, reason });
      expect(st.refused.every((p: { file: string }) => p.file === FILE)).toBe(true);
      expect(st.standing).toEqual([]);

      // the fix (another harmless change, so the served version visibly moves)
      const version = Number(before.version) + 1;
      const fixed = edited((d) => (d.columns[0].width = 90 + version), version);
      expect(await change(s, root, FILE, fixed, ID)).toBe('served');
      expect((await served()).version).toBe(version);
      expect((await served()).columns[0].width).toBe(90 + version);
      expect(s.infos.at(-1)).toMatch(new RegExp(`^${FILE}: ${ID} v${version} loaded \\([0-9a-f]{16}\\), error cleared$`));
      expect(await status()).toEqual({ watching: true, refused: [], standing: [] });
    });
  }

  it('refuses invalid JSON and a meta-schema violation the same way', async () => {
    const before = await served();
    expect(await change(s, root, FILE, good.replace('"columns": [', '"columns": [,'), ID)).toBe('refused');
    expect(s.errors.at(-1)).toMatch(new RegExp(`^${FILE} is invalid, keeping the previous version:\n${FILE}#: invalid JSON: `));
    expect(await served()).toEqual(before);
    expect((await status()).refused).toEqual([{ file: FILE, pointer: '', reason: expect.stringMatching(/^invalid JSON: /) }]);

    expect(await change(s, root, FILE, edited((d) => (d.columns[0].width = 'wide')), ID)).toBe('refused');
    expect(s.errors.at(-1)).toBe(`${FILE} is invalid, keeping the previous version:\n${FILE}#/columns/0/width: must be integer`);
    expect(await served()).toEqual(before);

    const version = Number(before.version) + 1;
    expect(await change(s, root, FILE, edited((d) => (d.columns[0].width = 77), version), ID)).toBe('served');
    expect((await served()).columns[0].width).toBe(77);
    expect((await status()).refused).toEqual([]);
  });

  it('refuses an edit that gives a menu page the route of another page', async () => {
    const version = Number((await served()).version) + 1;
    const r = await change(s, root, FILE, edited((d) => (d.routes = ['/panda_descendant/lab/account/role']), version), ID);
    expect(r).toBe('refused');
    // the page's menu route is its first route (issue 11: the menu entry is derived from the schema)
    expect(s.errors.at(-1)).toContain(
      `${FILE}#/routes/0: route "/panda_descendant/lab/account/role" is declared by two pages (also by schemas/pages/panda_descendant/lab-roles.json)`,
    );
    // the other schema already declares that route
    expect(s.errors.at(-1)).toContain(`${FILE}#/routes/0: duplicate route "/panda_descendant/lab/account/role"`);
    expect((await served()).routes).toEqual(['/panda_descendant/lab/account/user']);
    expect(await change(s, root, FILE, edited(() => {}, version), ID)).toBe('served');
    expect((await status()).refused).toEqual([]);
  });
});

describe('dev watch on a fixture tree', () => {
  let fx: Fixture;
  let s: Session;
  beforeEach(async () => {
    fx = makeFixture();
    s = await startWatch(fx.root, fx.inputs(), true);
  });
  afterEach(() => {
    s.watcher.close();
    setSchemaStore(null);
    fx.cleanup();
  });

  const edit = async (file: string, id: string, fn: (d: Record<string, any>) => void) => {
    const d = fx.read(file) as Record<string, any>;
    fn(d);
    return change(s, fx.root, file, `${JSON.stringify(d, null, 2)}\n`, id);
  };

  it('takes a refused edit in once the i18n key it waits for is added to both locales', async () => {
    expect(await edit(LIST_FILE, 'demo.item_list', (d) => (d.columns[0].title = 'demo.item.label'))).toBe('refused');
    expect(s.errors.at(-1)).toContain(`${LIST_FILE}#/columns/0/title: i18n key "demo.item.label" missing in zh-CN and en-US`);
    for (const lng of ['zh-CN', 'en-US']) {
      fx.edit(`src/locales/${lng}/demo.json`, (d) => (d.item.label = 'Label'));
    }
    await until(() => (s.store.get('demo.item_list')!.doc as any).columns[0].title === 'demo.item.label');
    await s.watcher.settled();
    expect(s.store.watch).toEqual({ refused: [], standing: [] });
  });

  it('takes a list referring to a new form in once the form file appears', async () => {
    expect(await edit(LIST_FILE, 'demo.item_list', (d) => (d.toolbar[0].form = 'demo.item_form2'))).toBe('refused');
    expect(s.store.watch!.refused).toEqual([{ file: LIST_FILE, pointer: '/toolbar/0/form', reason: 'unknown schema "demo.item_form2"' }]);
    fx.write('schemas/forms/demo/item2.form.json', { ...fx.read(FORM_FILE), id: 'demo.item_form2' });
    await until(() => (s.store.get('demo.item_list')!.doc as any).toolbar[0].form === 'demo.item_form2');
    await s.watcher.settled();
    expect(s.store.watch!.refused).toEqual([]);
  });

  it('refuses an edit that breaks a reference in another file (a form renamed under a list)', async () => {
    expect(await edit(FORM_FILE, 'demo.item_form', (d) => (d.id = 'demo.item_form_renamed'))).toBe('refused');
    expect(s.errors.at(-1)).toBe(
      `${FORM_FILE} is invalid, keeping the previous version:\n${LIST_FILE}#/toolbar/0/form: unknown schema "demo.item_form"`,
    );
    expect(s.store.get('demo.item_form')).toBeDefined();
  });

  it('drops a deleted file and shows what still refers to it as a standing problem', async () => {
    rmSync(path.join(fx.root, FORM_FILE));
    await until(() => !s.store.get('demo.item_form'));
    await s.watcher.settled();
    expect(s.store.watch!.standing).toEqual([{ file: LIST_FILE, pointer: '/toolbar/0/form', reason: 'unknown schema "demo.item_form"' }]);
    expect(s.errors.at(-1)).toContain(`${LIST_FILE}#/toolbar/0/form: unknown schema "demo.item_form"`);
  });
});

describe('addedProblems', () => {
  it('counts problems by file and reason, so a pointer that only moved is not new', () => {
    const p = (pointer: string, reason = 'unknown widget "X"') => ({ file: 'a.json', pointer, reason });
    expect(addedProblems([p('/columns/1/widget')], [p('/columns/0/widget')])).toEqual([]);
    expect(addedProblems([p('/columns/0/widget'), p('/columns/1/widget')], [p('/columns/0/widget')])).toEqual([p('/columns/1/widget')]);
    expect(addedProblems([p('/x', 'other')], [p('/x')])).toEqual([p('/x', 'other')]);
  });
});

describe('dev watch and fragments', () => {
  const FRAGMENT = 'schemas/fragments/pages/shop.list.json';
  const IDS = ['intelligent_text.shop_list', 'intelligent_voice.shop_list'];
  let root: string;
  let s: Session;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'schemas-watch-fragments-'));
    cpSync(path.join(PROJECT_ROOT, 'schemas'), path.join(root, 'schemas'), { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'src/locales'), path.join(root, 'src/locales'), { recursive: true });
    s = await startWatch(root, projectInputs(root), false);
  }, 120_000);

  afterAll(() => {
    s?.watcher.close();
    setSchemaStore(null);
    rmSync(root, { recursive: true, force: true });
  });

  const width = (id: string) => (s.store.get(id)!.doc.columns as Array<{ key: string; width?: number }>).find((c) => c.key === 'id')?.width;

  it('re-expands every schema that uses a changed fragment', async () => {
    const frag = JSON.parse(readFileSync(path.join(root, FRAGMENT), 'utf8')) as { columns: Array<{ key: string; width?: number }> };
    frag.columns.find((c) => c.key === 'id')!.width = 93;
    expect(await change(s, root, FRAGMENT, JSON.stringify(frag), IDS[0])).toBe('served');
    await until(() => IDS.every((id) => width(id) === 93));
  });

  it('refuses a fragment edit that breaks a page (missing fragment), naming file and pointer, and keeps serving the last good version', async () => {
    const frag = JSON.parse(readFileSync(path.join(root, FRAGMENT), 'utf8')) as { columns: unknown[] };
    frag.columns.push({ $ref: 'nowhere.json#/columns' });
    expect(await change(s, root, FRAGMENT, JSON.stringify(frag), IDS[0])).toBe('refused');
    expect(s.errors.at(-1)).toContain(`${FRAGMENT}#/columns/${frag.columns.length - 1}/$ref: "nowhere.json#/columns": fragment file schemas/fragments/pages/nowhere.json not found`);
    expect(IDS.map(width)).toEqual([93, 93]);
    expect(s.store.watch?.refused.some((p) => p.file.endsWith('shop.list.json'))).toBe(true);
  });
});
