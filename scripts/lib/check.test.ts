import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatProblem } from '../../server/schemas/problems.js';
import { runChecks } from './check.js';
import { resolveBase } from './git.js';
import { FORM_FILE, LIST_FILE, makeFixture, type Fixture } from './test-fixture.js';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

const lines = async (base: string | null = null) => (await runChecks(fx.inputs(base))).problems.map(formatProblem);

describe('schemas:check', () => {
  it('passes a valid tree', async () => {
    expect(await lines()).toEqual([]);
  });

  it('fails on an unknown widget', async () => {
    fx.edit(LIST_FILE, (d) => (d.columns[1].widget = 'Blink'));
    expect(await lines()).toEqual([`${LIST_FILE}#/columns/1/widget: unknown widget "Blink" (not in src/contract/widget-names.ts)`]);
  });

  it('fails on an unknown x-component inside a Formily field', async () => {
    fx.edit(FORM_FILE, (d) => (d.schema.properties.name['x-component'] = 'Marquee'));
    expect(await lines()).toEqual([
      `${FORM_FILE}#/schema/properties/name/x-component: unknown widget "Marquee" (not in src/contract/widget-names.ts)`,
    ]);
  });

  it('fails on an unknown enum', async () => {
    fx.edit(LIST_FILE, (d) => (d.columns[1].enum = 'task_state'));
    expect(await lines()).toEqual([`${LIST_FILE}#/columns/1/enum: unknown enum "task_state" (no schemas/enums/task_state.json)`]);
  });

  it('fails on an i18n key missing in one locale (including x-component-props and x-validator messages)', async () => {
    fx.edit('src/locales/en-US/demo.json', (d) => {
      delete d.item.name_placeholder;
      delete d.item.name_required;
    });
    expect(await lines()).toEqual([
      `${FORM_FILE}#/schema/properties/name/x-validator/0/message: i18n key "demo.item.name_required" missing in en-US`,
      `${LIST_FILE}#/filters/properties/name/x-component-props/placeholder: i18n key "demo.item.name_placeholder" missing in en-US`,
    ]);
  });

  it('reads `title` inside a request body mapping as a field name, not an i18n key', async () => {
    fx.edit(FORM_FILE, (d) => (d.modes.add.submit.body = { title: '{{ values.name }}' }));
    expect(await lines()).toEqual([]);
    fx.edit(FORM_FILE, (d) => (d.modes.add.title = 'demo.item.no_such_title'));
    expect((await lines()).some((l) => l.includes('"demo.item.no_such_title" missing'))).toBe(true);
  });

  it('fails on an unknown API path', async () => {
    fx.edit(LIST_FILE, (d) => (d.rowActions[0].api = 'POST item/remove'));
    expect(await lines()).toEqual([`${LIST_FILE}#/rowActions/0/api: unknown API "POST item/remove" (no such route on the server)`]);
  });

  it('fails on a known path with the wrong method', async () => {
    fx.edit(LIST_FILE, (d) => (d.data.api = 'POST item/list'));
    expect(await lines()).toEqual([`${LIST_FILE}#/data/api: unknown API "POST item/list" (no such route on the server)`]);
  });

  it('fails on a sortable column its data call does not sort by', async () => {
    fx.edit(LIST_FILE, (d) => {
      d.columns[0].sorter = true;
      d.columns[1].sorter = true;
    });
    expect(await lines()).toEqual([
      `${LIST_FILE}#/columns/1/sorter: column "status" is sortable but GET item/list does not sort by it (sort_by: id, name)`,
    ]);
  });

  it('fails when a routed manifest entry has no page schema', async () => {
    const inputs = {
      ...fx.inputs(null),
      pageRoutes: [
        { route: '/admin_center/demo/items', key: 'admin_center.demo.item' },
        { route: '/admin_center/demo/orphan', key: 'admin_center.demo.orphan' },
      ],
    };
    expect((await runChecks(inputs)).problems.map(formatProblem)).toEqual([
      'src/contract/permission-manifest.ts#/admin_center.demo.orphan: route "/admin_center/demo/orphan" (admin_center.demo.orphan) has no page: no schema declares it in "routes" and it is not a bespoke screen',
    ]);
  });

  it('fails on an unknown permission key', async () => {
    fx.edit(LIST_FILE, (d) => (d.rowActions[0].permission = 'admin_center.demo.item.remove'));
    expect(await lines()).toEqual([
      `${LIST_FILE}#/rowActions/0/permission: unknown permission key "admin_center.demo.item.remove" (not in the permission manifest)`,
    ]);
  });

  it('fails on a duplicate id', async () => {
    fx.write('schemas/pages/demo/copy.list.json', { ...fx.read(LIST_FILE), routes: undefined });
    expect(await lines()).toEqual([
      `schemas/pages/demo/item.list.json#/id: duplicate id "demo.item_list" (also in schemas/pages/demo/copy.list.json)`,
    ]);
  });

  it('fails on a duplicate route', async () => {
    fx.write('schemas/pages/demo/other.list.json', { ...fx.read(LIST_FILE), id: 'demo.other_list' });
    expect(await lines()).toEqual([
      `schemas/pages/demo/other.list.json#/routes/0: duplicate route "/admin_center/demo/items" (also in ${LIST_FILE})`,
    ]);
  });

  it('fails on a route missing from the manifest', async () => {
    fx.edit(LIST_FILE, (d) => d.routes.push('/admin_center/demo/gadgets'));
    expect(await lines()).toEqual([
      `${LIST_FILE}#/routes/1: route "/admin_center/demo/gadgets" is not in the permission manifest (add it to src/contract/permission-manifest.ts)`,
    ]);
  });

  it('fails on an unknown referenced schema', async () => {
    fx.edit(LIST_FILE, (d) => (d.toolbar[0].form = 'demo.item_from'));
    expect(await lines()).toEqual([`${LIST_FILE}#/toolbar/0/form: unknown schema "demo.item_from"`]);
  });

  it('fails when openForm names a schema that is not a form', async () => {
    fx.edit(LIST_FILE, (d) => (d.toolbar[0].form = 'demo.item_list'));
    expect(await lines()).toEqual([`${LIST_FILE}#/toolbar/0/form: "demo.item_list" is a list schema, expected a form`]);
  });

  it('fails on a meta-schema violation, naming file and pointer', async () => {
    fx.edit(LIST_FILE, (d) => {
      delete d.columns[0].title;
      d.columns[1].colour = 'red';
    });
    expect(await lines()).toEqual([
      `${LIST_FILE}#/columns/0/title: required property is missing`,
      `${LIST_FILE}#/columns/1/colour: unknown property (not in the schema language)`,
    ]);
  });

  it('names the allowed action types instead of every union branch', async () => {
    fx.edit(LIST_FILE, (d) => (d.toolbar[0].type = 'openModal'));
    const out = await lines();
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(new RegExp(`^${LIST_FILE}#/toolbar/0: unknown type "openModal" \\(allowed: .*openForm.*\\)$`));
  });

  it('reports only the error of the action type the author meant', async () => {
    fx.edit(LIST_FILE, (d) => {
      // (an openForm's mode has a default since issue 22; its form has none)
      delete d.toolbar[0].form;
      d.rowActions[0].refresh = 'yes';
    });
    expect(await lines()).toEqual([
      `${LIST_FILE}#/rowActions/0/refresh: must be boolean`,
      `${LIST_FILE}#/toolbar/0/form: required property is missing`,
    ]);
  });

  it('fails on an unsupported schemaVersion', async () => {
    fx.edit(FORM_FILE, (d) => (d.schemaVersion = 2));
    expect(await lines()).toEqual([`${FORM_FILE}#/schemaVersion: schemaVersion 2 is not supported (supported: 1)`]);
  });

  it('fails on invalid JSON', async () => {
    fx.write(FORM_FILE, '{ "id": ');
    const out = await lines();
    expect(out).toHaveLength(2); // the JSON error, and the list's openForm now points nowhere
    expect(out[0]).toMatch(new RegExp(`^${FORM_FILE}#: invalid JSON`));
  });

  describe('version raised since the git base', () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: fx.root, stdio: 'pipe' });
    beforeEach(() => {
      git('init', '-q');
      git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '.');
      git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'base');
    });

    it('fails on a changed file whose version was not raised', async () => {
      fx.edit(LIST_FILE, (d) => (d.columns[0].width = 200));
      const base = await resolveBase(fx.root, null);
      const out = await lines(base);
      expect(out).toEqual([
        `${LIST_FILE}#/version: changed since ${base!.slice(0, 12)} but version not raised (was 1, now 1; set 2)`,
      ]);
    });

    it('passes when the version was raised, on formatting-only changes and for new files', async () => {
      fx.edit(LIST_FILE, (d) => {
        d.columns[0].width = 200;
        d.version = 2;
      });
      fx.write(FORM_FILE, JSON.stringify(fx.read(FORM_FILE))); // reformatted only
      fx.write('schemas/pages/demo/new.list.json', { ...fx.read(LIST_FILE), id: 'demo.new_list', routes: undefined });
      expect(await lines(await resolveBase(fx.root, 'HEAD'))).toEqual([]);
    });

    it('compares expanded forms: moving columns into a fragment needs no bump, changing the fragment does', async () => {
      const columns = fx.read(LIST_FILE).columns;
      fx.write('schemas/fragments/demo.json', { columns });
      fx.edit(LIST_FILE, (d) => (d.columns = [{ $ref: '../../fragments/demo.json#/columns' }]));
      expect(await lines(await resolveBase(fx.root, 'HEAD'))).toEqual([]);
      git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '.');
      git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'fragment');
      fx.edit('schemas/fragments/demo.json', (d) => (d.columns[0].width = 321));
      const base = await resolveBase(fx.root, 'HEAD');
      expect(await lines(base)).toEqual([`${LIST_FILE}#/version: changed since ${base!.slice(0, 12)} but version not raised (was 1, now 1; set 2)`]);
    });
  });

  it('fails on a fragment reference to a missing file, a missing pointer or a cycle, naming file and pointer', async () => {
    fx.write('schemas/fragments/a.json', { x: { $ref: 'b.json#/y' } });
    fx.write('schemas/fragments/b.json', { y: { $ref: 'a.json#/x' } });
    fx.edit(LIST_FILE, (d) => {
      d.columns.push({ $ref: '../../fragments/none.json#/columns' });
      d.toolbar.push({ $ref: '../../fragments/a.json#/nope' });
      d.rowActions.push({ $ref: '../../fragments/a.json#/x' });
    });
    expect(await lines()).toEqual([
      `schemas/fragments/b.json#/y/$ref: "a.json#/x": fragment reference cycle: schemas/fragments/a.json#/x → schemas/fragments/b.json#/y → schemas/fragments/a.json#/x`,
      `${LIST_FILE}#/columns/2/$ref: "../../fragments/none.json#/columns": fragment file schemas/fragments/none.json not found`,
      `${LIST_FILE}#/toolbar/1/$ref: "../../fragments/a.json#/nope": no value at pointer "/nope" in schemas/fragments/a.json`,
    ]);
  });
});
