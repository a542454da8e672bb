/**
 * The checks issue 22 added to the one set check (check.ts `checkSchemaSet`) that `schemas:check`
 * and the dev watch share: an inline option list copying an enum file, and a menu page's own
 * permission key that is neither published nor declared new (a typo) — through the CLI's
 * `runChecks` and through a running dev watch, which must refuse the same edit.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEXT_KEYS } from '../../schemas/meta/src/index.js';
import { readSchemas } from '../../server/schemas/read.js';
import { formatProblem } from '../../server/schemas/problems.js';
import { SchemaStore, setSchemaStore } from '../../server/schemas/store.js';
import { watchSchemas } from '../../server/schemas/watch.js';
import { referenceChecks } from '../../server/schemas/watch-checks.js';
import { runChecks, type CheckInputs } from './check.js';
import { LIST_FILE, makeFixture, type Fixture } from './test-fixture.js';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

const PUBLISHED = new Set(['admin_center.demo.item', 'admin_center.demo.item.delete']);
/**
 * The fixture's inputs with published keys. Its permission keys stand for the tree derived from
 * the pages (the project derives it from their `menu`: a page's own key is always in it, which is
 * why a typo there passed the reference check), so they include the keys the tests write.
 */
const inputs = (): CheckInputs => {
  const base = fx.inputs();
  const derived = new Set([...base.permissionKeys, 'admin_center.demo.itme', 'admin_center.demo.archive', 'admin_center.demo.archiev']);
  return { ...base, permissionKeys: derived, publishedKeys: PUBLISHED };
};
const lines = async () => (await runChecks(inputs())).problems.map(formatProblem);

/** task_status (the fixture's enum) written out inline, labels as i18n keys demo.status.<i> */
const VALUES = ['pending', 'running', 'finished', 'stopped', 'pausing'];
const copied = () => VALUES.map((value, i) => ({ value, label: `demo.status.${i}` }));
const EN = ['Pending', 'Running', 'Finished', 'Stopped', 'Paused'];
/** the labels of demo.status.<i> in both locales */
const labels = (en: string[], zh: string[]) => {
  fx.edit('src/locales/en-US/demo.json', (d) => (d.status = Object.fromEntries(en.map((l, i) => [i, l]))));
  fx.edit('src/locales/zh-CN/demo.json', (d) => (d.status = Object.fromEntries(zh.map((l, i) => [i, l]))));
};

describe('schemas:check: inline copies of an enum', () => {
  it('fails on a column whose options carry an enum file\'s values and labels, naming the enum to refer to', async () => {
    labels(EN, ['待开始', '进行中', '已完成', '已终止', '已暂停']);
    fx.edit(LIST_FILE, (d) => {
      delete d.columns[1].enum;
      d.columns[1].widgetProps = { options: copied() };
    });
    expect(await lines()).toEqual([
      `${LIST_FILE}#/columns/1/widgetProps/options: copies the enum "task_status" (its values and labels): refer to it instead, "enum": "task_status" on the column or item — its labels live in schemas/enums/task_status.json`,
    ]);
  });

  it('fails on a Formily filter whose inline `enum` copies one (labels as i18n keys, one locale is enough)', async () => {
    labels(EN, EN.map((l) => `${l}?`));
    fx.edit(LIST_FILE, (d) => {
      d.filters.properties.status = { type: 'string', title: 'demo.item.status', 'x-component': 'Select', enum: copied() };
    });
    expect(await lines()).toEqual([
      `${LIST_FILE}#/filters/properties/status/enum: copies the enum "task_status" (its values and labels): refer to it instead, "x-enum": "task_status" — its labels live in schemas/enums/task_status.json`,
    ]);
  });

  it('passes the same values with other labels (another meaning), and a list that leaves a value out', async () => {
    labels(['Waiting', 'Busy', 'Done', 'Halted', 'On hold'], ['等待', '忙', '完成', '停止', '搁置']);
    fx.edit(LIST_FILE, (d) => {
      delete d.columns[1].enum;
      d.columns[1].widgetProps = { options: copied() };
    });
    expect(await lines()).toEqual([]);
    labels(EN, EN);
    fx.edit(LIST_FILE, (d) => (d.columns[1].widgetProps = { options: copied().slice(0, 4) }));
    expect(await lines()).toEqual([]);
  });
});

describe('schemas:check: a menu page\'s own permission key', () => {
  const menuPage = (permission: string, newPermission?: string) => (d: Record<string, any>) => {
    d.permission = permission;
    d.menu = { group: 'admin.system', order: 5, ...(newPermission ? { newPermission } : {}) };
  };

  it('passes a published key and fails on a typo, naming the way to declare a new one', async () => {
    fx.edit(LIST_FILE, menuPage('admin_center.demo.item'));
    expect(await lines()).toEqual([]);
    fx.edit(LIST_FILE, menuPage('admin_center.demo.itme'));
    expect(await lines()).toEqual([
      `${LIST_FILE}#/permission: page permission key "admin_center.demo.itme" is not in the permission tree (schemas/meta lists the known keys) — a typo? A new page declares its key: "menu": { …, "newPermission": "admin_center.demo.itme" }`,
    ]);
  });

  it('passes a key the page declares new, and fails when the declaration names another key', async () => {
    fx.edit(LIST_FILE, menuPage('admin_center.demo.archive', 'admin_center.demo.archive'));
    expect(await lines()).toEqual([]);
    fx.edit(LIST_FILE, menuPage('admin_center.demo.archiev', 'admin_center.demo.archive'));
    expect(await lines()).toEqual([
      `${LIST_FILE}#/menu/newPermission: declares "admin_center.demo.archive" new, but the page's permission is "admin_center.demo.archiev" — a typo in one of them?`,
    ]);
  });

  it('the dev watch refuses the typo live with the same problem, and serves the fix', async () => {
    fx.edit(LIST_FILE, menuPage('admin_center.demo.item'));
    const schemasDir = path.join(fx.root, 'schemas');
    const { schemas, meta } = await readSchemas(schemasDir);
    const store = new SchemaStore(schemas, TEXT_KEYS);
    setSchemaStore(store);
    const errors: string[] = [];
    const watcher = watchSchemas(store, schemasDir, meta, { info: () => {}, error: (m) => errors.push(m) }, { checks: referenceChecks(inputs()) });
    try {
      await watcher.settled();
      fx.edit(LIST_FILE, (d) => {
        menuPage('admin_center.demo.itme')(d);
        d.version = 2;
      });
      const cli = await lines();
      const until = Date.now() + 8000;
      while (!store.watch?.refused.length && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
      await watcher.settled();
      expect(store.watch!.refused.map(formatProblem)).toEqual(cli);
      expect(store.get('demo.item_list')!.permission).toBe('admin_center.demo.item');

      fx.edit(LIST_FILE, (d) => {
        menuPage('admin_center.demo.item')(d);
        d.version = 3;
      });
      while (store.get('demo.item_list')!.version !== 3 && Date.now() < until + 8000) await new Promise((r) => setTimeout(r, 25));
      await watcher.settled();
      expect(store.get('demo.item_list')!.version).toBe(3);
      expect(store.watch!.refused).toEqual([]);
    } finally {
      watcher.close();
      setSchemaStore(null);
    }
  });
});

describe('a page whose form makes a call its key does not reach', () => {
  // the fixture's routes: the list's page key reads, the create needs its own key (a POST is never granted by a page)
  const routes = [
    { method: 'GET' as const, path: 'item/list', access: { permission: 'admin_center.demo.item' } },
    { method: 'POST' as const, path: 'item/create', access: { permission: 'admin_center.demo.item.create' } },
    { method: 'POST' as const, path: 'item/delete', access: { permission: 'admin_center.demo.item.delete' } },
  ];
  const withRoutes = (): CheckInputs => {
    const i = inputs();
    return { ...i, routes, permissionKeys: new Set([...i.permissionKeys, 'admin_center.demo.item.create']) };
  };

  it('is refused by schemas:check and by the live watch alike (the watch used to serve it)', async () => {
    fx.edit(LIST_FILE, (d) => (d.toolbar[0].permission = 'admin_center.demo.item.create'));
    expect((await runChecks(withRoutes())).problems).toEqual([]);
    const schemasDir = path.join(fx.root, 'schemas');
    const { schemas, meta } = await readSchemas(schemasDir);
    const store = new SchemaStore(schemas, TEXT_KEYS);
    setSchemaStore(store);
    const watcher = watchSchemas(store, schemasDir, meta, { info: () => {}, error: () => {} }, { checks: referenceChecks(withRoutes()) });
    try {
      await watcher.settled();
      fx.edit(LIST_FILE, (d) => {
        delete d.toolbar[0].permission; // the add button now shows to anyone holding the page
        d.version = 2;
      });
      const cli = (await runChecks(withRoutes())).problems.map(formatProblem);
      expect(cli).toHaveLength(1);
      expect(cli[0]).toMatch(/POST item\/create is refused to a user holding page "admin_center\.demo\.item"/);
      const until = Date.now() + 8000;
      while (!store.watch?.refused.length && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
      await watcher.settled();
      expect(store.watch!.refused.map(formatProblem)).toEqual(cli);
      expect(store.get('demo.item_list')!.version).toBe(1);
    } finally {
      watcher.close();
      setSchemaStore(null);
    }
  });
});
