/**
 * The dev watch never stops (issue 22): saves made as editors and tools make them — a new file
 * renamed over the old one (`sed -i`, safe-saving editors), a folder deleted and made again, a
 * folder renamed away and back (a `git checkout` of a branch) — are all followed, before and
 * after a refused save, and GET schema/detail serves the fix without a restart.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEXT_KEYS } from '../../schemas/meta/src/index.js';
import { FORM_FILE, LIST_FILE, formDoc, listDoc, makeFixture, type Fixture } from '../../scripts/lib/test-fixture.js';
import type { RouteDef, SessionUser } from '../http/route.js';
import { registerErrorHandling } from '../plugins/errors.js';
import { routes as schemaRoutes } from '../routes/schema.js';
import { readSchemas } from './loader.js';
import { SchemaStore, setSchemaStore } from './store.js';
import { watchSchemas, type SchemaWatcher } from './watch.js';
import { referenceChecks } from './watch-checks.js';

const until = async (cond: () => boolean, what: string, ms = 8000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

const SUPER: SessionUser = { id: 1, email: 's@x', name: 's', isSuperAdmin: true, keys: new Set(), sessionId: 1 };
const LIST_ID = 'demo.item_list';
const FORM_ID = 'demo.item_form';

describe('dev watch: atomic saves, deleted and re-created folders', () => {
  let fx: Fixture;
  let store: SchemaStore;
  let watcher: SchemaWatcher;
  let errors: string[];
  let app: FastifyInstance;

  beforeEach(async () => {
    fx = makeFixture();
    const schemasDir = path.join(fx.root, 'schemas');
    const { schemas, problems, meta } = await readSchemas(schemasDir);
    expect(problems).toEqual([]);
    store = new SchemaStore(schemas, TEXT_KEYS);
    setSchemaStore(store);
    errors = [];
    watcher = watchSchemas(store, schemasDir, meta, { info: () => {}, error: (m) => errors.push(m) }, { checks: referenceChecks(fx.inputs()) });
    await watcher.settled();
    app = Fastify();
    registerErrorHandling(app);
    for (const r of schemaRoutes as RouteDef[]) {
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
  });

  afterEach(async () => {
    watcher.close();
    await app.close();
    setSchemaStore(null);
    fx.cleanup();
  });

  /** what the console is served for the list page */
  const served = async () => {
    const r = await app.inject({ method: 'GET', url: `/api/admin/schema/detail?id=${LIST_ID}` });
    expect(r.statusCode).toBe(200);
    return r.json().data.schema as { version: number; columns: Array<{ title: string; width?: number }> };
  };

  /** Saves as editors do: a new file beside the old one, renamed over it. */
  const saveByRename = (file: string, doc: unknown) => {
    const abs = path.join(fx.root, file);
    writeFileSync(`${abs}.tmp`, `${JSON.stringify(doc, null, 2)}\n`);
    renameSync(`${abs}.tmp`, abs);
  };
  const listWith = (version: number, fn: (d: Record<string, any>) => void) => {
    const d = listDoc() as Record<string, any>;
    d.version = version;
    fn(d);
    return d;
  };

  it('serves a save renamed over the file, refuses the broken one after it, serves the fix, and still sees plain writes', async () => {
    saveByRename(LIST_FILE, listWith(2, (d) => (d.columns[0].width = 120)));
    await until(() => store.get(LIST_ID)?.version === 2, 'the first renamed save');
    expect((await served()).columns[0].width).toBe(120);

    saveByRename(LIST_FILE, listWith(3, (d) => (d.columns[0].title = 'demo.item.no_such_key')));
    await until(() => errors.length > 0, 'the broken save to be refused');
    await watcher.settled();
    expect(errors.at(-1)).toContain(`${LIST_FILE}#/columns/0/title: i18n key "demo.item.no_such_key" missing in zh-CN and en-US`);
    expect(store.watch!.refused).toEqual([{ file: LIST_FILE, pointer: '/columns/0/title', reason: 'i18n key "demo.item.no_such_key" missing in zh-CN and en-US' }]);
    expect((await served()).version).toBe(2);

    saveByRename(LIST_FILE, listWith(4, (d) => (d.columns[0].width = 140)));
    await until(() => store.get(LIST_ID)?.version === 4, 'the renamed fix');
    await watcher.settled();
    const fixed = await served();
    expect(fixed.version).toBe(4);
    expect(fixed.columns[0]).toMatchObject({ title: 'demo.item.name', width: 140 });
    expect(store.watch!.refused).toEqual([]);

    // the watch is still on: a plain write of the same file and a renamed save of another
    fx.write(LIST_FILE, listWith(5, (d) => (d.columns[0].width = 150)));
    await until(() => store.get(LIST_ID)?.version === 5, 'a plain write after the renamed saves');
    saveByRename(FORM_FILE, { ...formDoc(), version: 2 });
    await until(() => store.get(FORM_ID)?.version === 2, 'a renamed save of another file');
  });

  it('follows a folder deleted and made again, and one renamed away and back (a branch switch)', async () => {
    const formDir = path.join(fx.root, path.dirname(FORM_FILE));
    rmSync(formDir, { recursive: true });
    await until(() => !store.get(FORM_ID), 'the form of the deleted folder to be dropped');
    await watcher.settled();
    expect(store.watch!.standing).toEqual([{ file: LIST_FILE, pointer: '/toolbar/0/form', reason: `unknown schema "${FORM_ID}"` }]);

    mkdirSync(formDir);
    fx.write(FORM_FILE, { ...formDoc(), version: 2 });
    await until(() => store.get(FORM_ID)?.version === 2, 'the form in the re-created folder');
    await watcher.settled();
    expect(store.watch!.standing).toEqual([]);

    // a later save in the re-created folder is seen too
    saveByRename(FORM_FILE, { ...formDoc(), version: 3 });
    await until(() => store.get(FORM_ID)?.version === 3, 'a save in the re-created folder');

    const away = path.join(fx.root, 'away'); // out of the schemas folder
    renameSync(formDir, away);
    await until(() => !store.get(FORM_ID), 'the form of the folder renamed away to be dropped');
    renameSync(away, formDir);
    await until(() => store.get(FORM_ID)?.version === 3, 'the form of the folder renamed back');
    fx.write(FORM_FILE, { ...formDoc(), version: 4 });
    await until(() => store.get(FORM_ID)?.version === 4, 'a write in the folder renamed back');
  });

  it('follows the whole schemas folder replaced (a branch switch that rewrites it)', async () => {
    const pages = path.join(fx.root, 'schemas/pages');
    const copy = `${pages}-new`;
    mkdirSync(path.join(copy, 'demo'), { recursive: true });
    writeFileSync(path.join(copy, 'demo/item.list.json'), `${JSON.stringify(listWith(7, (d) => (d.columns[0].width = 170)), null, 2)}\n`);
    rmSync(pages, { recursive: true });
    renameSync(copy, pages);
    await until(() => store.get(LIST_ID)?.version === 7, 'the page of the replaced folder');
    fx.write(LIST_FILE, listWith(8, () => {}));
    await until(() => store.get(LIST_ID)?.version === 8, 'a write in the replaced folder');
  });

  it('follows the schemas folder itself moved away and put back (its parent is watched for it)', async () => {
    const schemasDir = path.join(fx.root, 'schemas');
    const away = path.join(fx.root, 'schemas-away');
    renameSync(schemasDir, away);
    await until(() => !store.get(LIST_ID), 'the schemas of the folder moved away to be dropped');
    renameSync(away, schemasDir);
    await until(() => Boolean(store.get(LIST_ID) && store.get(FORM_ID)), 'the schemas of the folder put back');
    fx.write(LIST_FILE, listWith(9, () => {}));
    await until(() => store.get(LIST_ID)?.version === 9, 'a write in the folder put back');
    await watcher.settled();
    expect(store.watch!.refused).toEqual([]);
  });
});
