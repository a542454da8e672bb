/**
 * schemas:diff classification (risky / notable / cosmetic), old → new values, the Markdown
 * summary, --fail-on, and the version rule against the previous commit that changed a file
 * (on a throw-away git repository, not this one's history).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runChecks } from './lib/check.js';
import { readSchemaFiles, readSchemaFilesAt } from './lib/docs.js';
import { diffEntries, diffSchemaChanges, failingChanges, formatMarkdown, formatText, summaryLine, type Change } from './lib/diff.js';
import { FORM_FILE, LIST_FILE, formDoc, listDoc, makeFixture, type Fixture } from './lib/test-fixture.js';
import { versionProblems } from './lib/versions.js';
import { withVersionProblems } from './schemas-diff.js';

type Doc = Record<string, any>;

/** The changes between a doc and its edited copy, as `class: text`. */
function changes(doc: () => Doc, edit: (d: Doc) => void): string[] {
  const o = doc();
  const n = structuredClone(o);
  edit(n);
  return diffSchemaChanges(o, n).map((c: Change) => `${c.cls}: ${c.text}`);
}
const at = (doc: () => Doc, edit: (d: Doc) => void) => {
  const o = doc();
  const n = structuredClone(o);
  edit(n);
  return diffSchemaChanges(o, n);
};

describe('schemas:diff classes: risky', () => {
  it('a permission removed from a page, an action, a column, a mode or a field', () => {
    expect(changes(listDoc, (d) => delete d.permission)).toEqual(['risky: page no longer needs a permission (was admin_center.demo.item)']);
    expect(changes(listDoc, (d) => delete d.rowActions[0].permission)).toEqual([
      'risky: row action delete no longer needs a permission (was admin_center.demo.item.delete)',
    ]);
    const withColumnKey = () => {
      const d: Doc = listDoc();
      d.columns[1].permission = 'admin_center.demo.item.status';
      return d;
    };
    expect(changes(withColumnKey, (d) => delete d.columns[1].permission)).toEqual([
      'risky: column status no longer needs a permission (was admin_center.demo.item.status)',
    ]);
    const withFieldKey = () => {
      const d: Doc = formDoc();
      d.schema.properties.name['x-permission'] = 'admin_center.demo.item.rename';
      d.modes.add.permission = 'admin_center.demo.item.add';
      return d;
    };
    expect(
      changes(withFieldKey, (d) => {
        delete d.schema.properties.name['x-permission'];
        delete d.modes.add.permission;
      }),
    ).toEqual([
      'risky: field name no longer needs a permission (was admin_center.demo.item.rename)',
      'risky: mode add no longer needs a permission (was admin_center.demo.item.add)',
    ]);
  });

  it('a permission loosened to a broader key (its parent, the module key) or dropped from a list', () => {
    expect(changes(listDoc, (d) => (d.rowActions[0].permission = 'admin_center.demo.item'))).toEqual([
      'risky: row action delete permission loosened: admin_center.demo.item.delete → admin_center.demo.item (a broader key)',
    ]);
    expect(changes(listDoc, (d) => (d.permission = 'admin_center'))).toEqual([
      'risky: page permission loosened: admin_center.demo.item → admin_center (a broader key)',
    ]);
    const listed = () => ({ ...listDoc(), permission: ['admin_center.demo.item', 'admin_center.demo.item.audit'] });
    expect(changes(listed, (d) => d.permission.pop())).toEqual(['risky: page permission admin_center.demo.item.audit dropped']);
    // narrowed or moved sideways: notable, the reviewer judges the key
    expect(changes(listDoc, (d) => (d.permission = 'admin_center.demo.item.view'))).toEqual([
      'notable: page now needs admin_center.demo.item.view (was admin_center.demo.item)',
    ]);
  });

  it('a column removed and a form field removed', () => {
    const c = at(listDoc, (d) => d.columns.shift());
    expect(c).toEqual([{ cls: 'risky', pointer: '/columns/0', text: 'column name removed' }]);
    const f = at(formDoc, (d) => delete d.schema.properties.name);
    expect(f).toEqual([{ cls: 'risky', pointer: '/schema/properties/name', text: 'field name removed' }]);
  });

  it('required dropped: from the x-validator, the field or the parent list', () => {
    expect(changes(formDoc, (d) => delete d.schema.properties.name['x-validator'])).toEqual(['risky: field name no longer required']);
    expect(changes(formDoc, (d) => (d.schema.properties.name['x-validator'] = [{ maxLength: 20 }]))).toEqual([
      'risky: field name no longer required',
      'notable: field name validation - → [{"maxLength":20}]',
    ]);
    const nested = () => {
      const d: Doc = formDoc();
      d.schema.properties.address = {
        type: 'object',
        required: ['city'],
        properties: { city: { type: 'string', title: 'demo.item.name' }, zip: { type: 'string', title: 'demo.item.name', required: true } },
      };
      return d;
    };
    expect(
      changes(nested, (d) => {
        d.schema.properties.address.required = [];
        d.schema.properties.address.properties.zip.required = false;
      }),
    ).toEqual(['risky: field address.city no longer required', 'risky: field address.zip no longer required']);
  });

  it('an API path or method changed: data source, action, submit, remote widget', () => {
    expect(changes(listDoc, (d) => (d.data.api = 'GET item/search'))).toEqual([
      'risky: data source GET item/list → GET item/search (API path changed)',
    ]);
    expect(changes(listDoc, (d) => (d.data.api = 'POST item/list'))).toEqual([
      'risky: data source GET item/list → POST item/list (API method changed)',
    ]);
    expect(changes(listDoc, (d) => (d.rowActions[0].api = 'GET item/delete'))).toEqual([
      'risky: row action delete POST item/delete → GET item/delete (API method changed)',
    ]);
    expect(changes(formDoc, (d) => (d.modes.add.submit.api = 'POST item/save'))).toEqual([
      'risky: mode add submit POST item/create → POST item/save (API path changed)',
    ]);
    const remote = () => {
      const d: Doc = formDoc();
      d.schema.properties.role = { type: 'string', 'x-component': 'RemoteSelect', 'x-component-props': { api: 'GET role/all', mode: 'multiple' } };
      return d;
    };
    const c = at(remote, (d) => (d.schema.properties.role['x-component-props'].api = 'GET role/everyone'));
    expect(c).toEqual([
      {
        cls: 'risky',
        pointer: '/schema/properties/role/x-component-props/api',
        text: 'field role props: api GET role/all → GET role/everyone (API changed)',
      },
    ]);
    // an API where there was none is new behaviour, not a changed one
    expect(changes(formDoc, (d) => (d.schema.properties.name['x-component-props'] = { api: 'GET item/names' }))).toEqual([
      'notable: field name props: api - → GET item/names (new API)',
    ]);
  });

  it('a version not raised for a changed schema', () => {
    const n: Doc = listDoc();
    n.columns[0].width = 100;
    const [d] = diffEntries([{ doc: listDoc(), file: LIST_FILE }], [{ doc: n, file: LIST_FILE }]);
    expect(d.changes).toEqual([
      { cls: 'cosmetic', pointer: '/columns/0/width', text: 'column name width - → 100' },
      { cls: 'risky', pointer: '/version', text: 'version not raised (was 1, now 1; set 2)' },
    ]);
    n.version = 2;
    expect(diffEntries([{ doc: listDoc() }], [{ doc: n }])[0].changes.map((c) => c.cls)).toEqual(['cosmetic']);
  });
});

describe('schemas:diff classes: notable and cosmetic', () => {
  it('notable: fields, columns and actions added, widgets, validation, defaults, params', () => {
    expect(
      changes(formDoc, (d) => {
        d.schema.properties.email = { type: 'string', title: 'demo.item.email', 'x-component': 'Input', required: true };
        d.schema.properties.name['x-component'] = 'TextArea';
        d.schema.properties.name['x-validator'].push({ maxLength: 40 });
        d.schema.properties.name.default = 'new item';
      }),
    ).toEqual([
      'notable: field name default - → new item',
      'notable: field name widget Input → TextArea',
      'notable: field name validation - → [{"maxLength":40}]',
      'notable: field email added (required)',
    ]);
    expect(
      changes(listDoc, (d) => {
        d.columns.push({ key: 'created_at', title: 'demo.item.created' });
        d.toolbar.push({ key: 'export', type: 'download', label: 'demo.item.export', api: 'GET item/list' });
        d.columns[1].widget = 'Text';
      }),
    ).toEqual(['notable: column status widget EnumTag → Text', 'notable: column created_at added', 'notable: toolbar action export added']);
  });

  it('cosmetic: titles, labels and other texts, widths, ordering, notes', () => {
    expect(
      changes(listDoc, (d) => {
        d.title = 'demo.item.heading';
        d.columns[0].title = 'demo.item.full_name';
        d.columns[0].width = 200;
        d.columns.reverse();
        d.rowActions[0].label = 'common.remove';
        d.rowActions[0].confirm = 'common.confirm_remove';
        d.filters.properties.name['x-component-props'].placeholder = 'demo.item.search';
        d.notes = 'filters are synced to the URL';
      }),
    ).toEqual([
      'cosmetic: title demo.item.title → demo.item.heading',
      'cosmetic: column name title demo.item.name → demo.item.full_name',
      'cosmetic: column name width - → 200',
      'cosmetic: columns reordered',
      'cosmetic: filter name props: placeholder demo.item.name_placeholder → demo.item.search',
      'cosmetic: row action delete confirm demo.item.confirm_delete → common.confirm_remove',
      'cosmetic: row action delete label demo.item.delete → common.remove',
      'cosmetic: notes added',
    ]);
    expect(
      changes(formDoc, (d) => {
        d.schema.properties.age = { type: 'number', title: 'demo.item.age' };
      }).concat(
        changes(
          () => ({ ...formDoc(), schema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } } }),
          // key order alone is invisible to the canonical JSON (and to the served hash): shown with another change
          (d) => (d.schema.properties = { b: { type: 'string', title: 'demo.item.b' }, a: { type: 'string' } }),
        ),
      ),
    ).toEqual(['notable: field age added', 'cosmetic: field b title - → demo.item.b', 'cosmetic: fields reordered']);
  });

  it('shows params, bodies, labels and props old → new', () => {
    const withParams = () => ({ ...listDoc(), data: { api: 'GET item/list', params: { env: 'prod', size: 10 } } });
    expect(
      changes(withParams, (d) => {
        d.data.params.env = 'all';
        delete d.data.params.size;
        d.rowActions[0].body = { id: '{{ record.item_id }}' };
        d.toolbar[0].label = 'demo.item.create';
        d.filters.properties.name['x-component-props'].allowClear = true;
      }),
    ).toEqual([
      'notable: data source params env prod → all',
      'notable: data source params size 10 → -',
      'notable: filter name props: allowClear - → true',
      'cosmetic: toolbar action add label demo.item.add → demo.item.create',
      'notable: row action delete body id {{ record.id }} → {{ record.item_id }}',
    ]);
    expect(changes(formDoc, (d) => (d.modes.add.submit.body = { name: '{{ values.name }}' }))).toEqual([
      'notable: mode add submit body name - → {{ values.name }}',
    ]);
  });
});

describe('schemas:diff output', () => {
  const before = () => [
    { doc: listDoc(), file: LIST_FILE },
    { doc: formDoc(), file: FORM_FILE },
  ];
  const after = () => {
    const l: Doc = listDoc();
    l.version = 2;
    l.columns[0].title = 'demo.item.full_name';
    l.columns.pop();
    l.toolbar.push({ key: 'export', type: 'download', label: 'demo.item.export', api: 'GET item/list' });
    const f: Doc = formDoc();
    f.version = 2;
    f.title = 'demo.item.create';
    return [
      { doc: l, file: LIST_FILE },
      { doc: f, file: FORM_FILE },
    ];
  };

  it('text: one line per schema in reading order, risky changes marked, and a count', () => {
    const diffs = diffEntries(before(), after());
    expect(formatText(diffs)).toEqual([
      'demo.item_form v1→v2: title demo.item.add → demo.item.create',
      'demo.item_list v1→v2: column name title demo.item.name → demo.item.full_name; RISKY column status removed; toolbar action export added',
    ]);
    expect(summaryLine(diffs)).toBe('1 risky, 1 notable, 2 cosmetic change(s) in 2 schema(s)');
  });

  it('md: risky first, then notable, cosmetic folded; each with id, file and pointer', () => {
    const md = formatMarkdown(diffEntries(before(), after()), 'origin/main');
    expect(md).toBe(
      [
        '### Schema changes since `origin/main`',
        '',
        '**1 risky**, 1 notable, 2 cosmetic in 2 schema(s).',
        '',
        '#### Risky',
        '',
        '- `demo.item_list` `schemas/pages/demo/item.list.json#/columns/1`: column status removed',
        '',
        '#### Notable',
        '',
        '- `demo.item_list` `schemas/pages/demo/item.list.json#/toolbar/1`: toolbar action export added',
        '',
        '<details><summary>Cosmetic (2)</summary>',
        '',
        '- `demo.item_form` `schemas/forms/demo/item.form.json#/title`: title demo.item.add → demo.item.create',
        '- `demo.item_list` `schemas/pages/demo/item.list.json#/columns/0/title`: column name title demo.item.name → demo.item.full_name',
        '',
        '</details>',
        '',
      ].join('\n'),
    );
    expect(md.indexOf('#### Risky')).toBeLessThan(md.indexOf('#### Notable'));
    expect(formatMarkdown([], 'HEAD')).toContain('No schema changes.');
  });

  it('--fail-on: risky counts risky changes and removed schemas; notable adds notable ones; cosmetic any', () => {
    const diffs = diffEntries(before(), after());
    expect(failingChanges(diffs, 'risky')).toBe(1);
    expect(failingChanges(diffs, 'notable')).toBe(2);
    expect(failingChanges(diffs, 'cosmetic')).toBe(4);
    const cosmeticOnly = diffEntries([{ doc: formDoc() }], [{ doc: { ...formDoc(), version: 2, title: 'demo.item.create' } }]);
    expect(failingChanges(cosmeticOnly, 'risky')).toBe(0);
    expect(failingChanges(diffEntries([{ doc: formDoc() }], []), 'risky')).toBe(1);
  });
});

describe('version rule: against the previous commit that changed the file', () => {
  const setup = () => {
    const fx = makeFixture();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: fx.root, stdio: 'pipe' }).toString().trim();
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'base');
    const base = git('rev-parse', 'HEAD');
    // first change: version raised
    fx.edit(LIST_FILE, (d) => {
      d.version = 2;
      d.columns[0].width = 120;
    });
    git('commit', '-q', '-am', 'first change, v2');
    const first = git('rev-parse', 'HEAD');
    return { fx, git, base, first };
  };
  const versionLines = async (fx: Fixture, base: string) =>
    (await runChecks(fx.inputs(base))).problems.filter((p) => p.pointer === '/version').map((p) => `${p.file}#${p.pointer}: ${p.reason}`);

  it('a second commit changing a schema without a bump fails, against the branch base and with HEAD as base', async () => {
    const { fx, git, base, first } = setup();
    try {
      fx.edit(LIST_FILE, (d) => {
        d.columns[0].width = 160; // still version 2
      });
      git('commit', '-q', '-am', 'second change, no bump');
      const expected = `${LIST_FILE}#/version: changed since ${first.slice(0, 12)} (the previous commit that changed this file) but version not raised (was 2, now 2; set 3)`;
      // v2 is above the base's v1: only the previous commit finds it
      expect(await versionLines(fx, base)).toEqual([expected]);
      // no branch base (HEAD): HEAD's own commit is checked
      expect(await versionLines(fx, git('rev-parse', 'HEAD'))).toEqual([expected]);
      // the diff reports it as risky, even when the content equals the ref's
      const current = await readSchemaFiles(fx.root);
      const head = git('rev-parse', 'HEAD');
      const diffs = withVersionProblems(diffEntries(await readSchemaFilesAt(fx.root, head), current), await versionProblems(fx.root, head, current), current);
      expect(formatText(diffs)).toEqual([
        `demo.item_list v2: RISKY version not raised since ${first.slice(0, 12)}, the previous commit that changed it (was 2, now 2; set 3)`,
      ]);
      expect(formatMarkdown(diffs, 'HEAD')).toContain(`- \`demo.item_list\` \`${LIST_FILE}#/version\`: version not raised since ${first.slice(0, 12)}`);
    } finally {
      fx.cleanup();
    }
  });

  it('an uncommitted change is compared with the last commit that changed the file', async () => {
    const { fx, base, first } = setup();
    try {
      fx.edit(LIST_FILE, (d) => {
        d.columns[0].width = 160;
      });
      expect(await versionLines(fx, base)).toEqual([
        `${LIST_FILE}#/version: changed since ${first.slice(0, 12)} (the previous commit that changed this file) but version not raised (was 2, now 2; set 3)`,
      ]);
      fx.edit(LIST_FILE, (d) => {
        d.version = 3;
      });
      expect(await versionLines(fx, base)).toEqual([]);
    } finally {
      fx.cleanup();
    }
  });

  it('passes a second commit with a bump, a formatting-only commit, and files other commits changed', async () => {
    const { fx, git, base } = setup();
    try {
      fx.edit(LIST_FILE, (d) => {
        d.version = 3;
        d.columns[0].width = 160;
      });
      git('commit', '-q', '-am', 'second change, v3');
      fx.write(FORM_FILE, JSON.stringify(fx.read(FORM_FILE))); // same content, one line
      git('commit', '-q', '-am', 'reformat the form');
      expect(await versionLines(fx, base)).toEqual([]);
      expect(await versionLines(fx, git('rev-parse', 'HEAD'))).toEqual([]);
    } finally {
      fx.cleanup();
    }
  });
});
