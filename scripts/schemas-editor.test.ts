/**
 * Editor support, as VS Code sees it: vscode-json-languageservice (the JSON service of VS
 * Code) opens a real page schema, loads the published meta-schemas through its `$schema`
 * (a relative path, resolved and read from disk like the editor does), and is asked for
 * completions and diagnostics at a widget, an enum, a permission and an API position.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getLanguageService, TextDocument, type JSONDocument, type LanguageService } from 'vscode-json-languageservice';
import { allPermissionKeys } from '../src/contract/permission-manifest.js';
import { diskPermissionTree, rawPageDocs } from '../server/schemas/permission-tree.js';
import { declaredNewKey, publishedPermissionKeys } from './lib/check-permissions.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = 'schemas/pages/intelligent_text/policy.list.json';

function service(): LanguageService {
  const ls = getLanguageService({
    schemaRequestService: async (uri) => readFileSync(fileURLToPath(uri), 'utf8'),
    workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).href },
  });
  ls.configure({ validate: true, allowComments: false });
  return ls;
}

const ls = service();
const committed = readFileSync(path.join(root, PAGE), 'utf8');
/** `text` with `from` replaced, which must be there (a test that edits nothing tests nothing). */
function must(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`${from} not in ${PAGE}`);
  return text.replace(from, to);
}
/**
 * The page with three of its shared parts written inline, as a page may write them (the committed
 * page takes them from schemas/fragments/pages/filters.json and columns.json), and one widget
 * named where the defaults would give it (schemas say only what differs, docs/schemas.md
 * "Defaults", so the committed page names no x-component): places to complete at.
 */
const source = [
  ['"source_type": { "$ref": "../../fragments/pages/filters.json#/sourceType" }', '"source_type": { "title": "shared.common.sourceType", "x-component": "Select", "x-enum": "policy_source_type" }'],
  ['"channel": { "$ref": "../../fragments/pages/filters.json#/channel" }', '"channel": { "title": "shared.common.channel", "x-enum": "policy_channel" }'],
  ['{ "$ref": "../../fragments/pages/columns.json#/channel" }', '{ "key": "channel", "title": "shared.common.channel", "enum": "policy_channel", "width": 80 }'],
].reduce((text, [from, to]) => must(text, from, to), committed);

/** The page with the `nth` occurrence of `"prop": "value"` given `replacement` as its value; the offset just inside its opening quote. */
function edit(prop: string, value: string, replacement: string, nth = 0): { text: string; offset: number } {
  const needle = `"${prop}": ${JSON.stringify(value)}`;
  let at = -1;
  for (let i = 0; i <= nth; i++) at = source.indexOf(needle, at + 1);
  if (at < 0) throw new Error(`${needle} not in ${PAGE}`);
  const text = `${source.slice(0, at)}"${prop}": ${JSON.stringify(replacement)}${source.slice(at + needle.length)}`;
  return { text, offset: at + `"${prop}": "`.length };
}

function open(text: string): { doc: TextDocument; json: JSONDocument } {
  const doc = TextDocument.create(pathToFileURL(path.join(root, PAGE)).href, 'json', 1, text);
  return { doc, json: ls.parseJSONDocument(doc) };
}

/** The values offered inside the empty string that replaced `value`. */
async function completions(prop: string, value: string, nth = 0): Promise<string[]> {
  const { text, offset } = edit(prop, value, '', nth);
  const { doc, json } = open(text);
  const list = await ls.doComplete(doc, doc.positionAt(offset), json);
  // the label of a long value is shortened with "…"; the inserted text is whole
  return (list?.items ?? []).map((i) => (i.textEdit?.newText ?? i.insertText ?? i.label).replace(/^"|"$/g, ''));
}

/** Error messages at the value after it was replaced by `wrong`. */
async function errors(prop: string, value: string, wrong: string, nth = 0): Promise<string[]> {
  const { text, offset } = edit(prop, value, wrong, nth);
  const { doc, json } = open(text);
  const at = doc.positionAt(offset);
  // VS Code shows schema problems as warnings unless told otherwise; ask for errors
  const diagnostics = await ls.doValidation(doc, json, { schemaValidation: 'error' });
  return diagnostics.filter((d) => d.severity === 1 && d.range.start.line === at.line).map((d) => (typeof d.message === 'string' ? d.message : d.message.value));
}

describe('editor support (vscode-json-languageservice on a real page)', () => {
  it('the page as committed has no diagnostics', async () => {
    for (const text of [committed, source]) {
      const { doc, json } = open(text);
      expect((await ls.doValidation(doc, json)).map((d) => d.message)).toEqual([]);
    }
  });

  it('completes widget names at x-component and at a column widget', async () => {
    const atField = await completions('x-component', 'Select');
    expect(atField).toContain('Input');
    expect(atField).toContain('Select');
    expect(atField).toContain('DatePicker.RangePicker');
    expect(await completions('widget', 'EllipsisText')).toContain('DateTime');
  });

  it('completes enum ids at x-enum and at a column enum', async () => {
    expect(await completions('x-enum', 'policy_channel')).toContain('policy_channel');
    const atColumn = await completions('enum', 'policy_channel');
    expect(atColumn).toContain('policy_channel');
    expect(atColumn).toContain('task_status');
  });

  it('completes permission keys of the manifest', async () => {
    const offered = await completions('permission', 'intelligent_text.text.learn.policy_management');
    expect(offered).toContain('intelligent_text.text.learn.policy_management');
    expect(offered.filter((k) => !allPermissionKeys(diskPermissionTree()).has(k))).toEqual([]);
    // every key of the tree, but a page's own key that is neither published yet nor declared new (a typo until declared: scripts/lib/check-permissions.ts)
    const published = publishedPermissionKeys(root) ?? new Set();
    const pending = rawPageDocs(path.join(root, 'schemas'))
      .map(({ doc }) => doc)
      .filter((doc) => doc.menu && typeof doc.permission === 'string' && !published.has(doc.permission) && declaredNewKey(doc) !== doc.permission)
      .map((doc) => String(doc.permission));
    expect([...allPermissionKeys(diskPermissionTree())].filter((k) => !offered.includes(k) && !pending.includes(k))).toEqual([]);
  });

  it('completes API refs of the route table at data.api', async () => {
    const offered = await completions('api', 'GET shop/policy/list');
    expect(offered).toContain('GET shop/list');
    expect(offered).toContain('GET shop/policy/list');
    expect(offered.every((v) => /^(GET|POST) /.test(v))).toBe(true);
  });

  it('reports a wrong value at each position as an error that says what belongs there', async () => {
    // the message starts with the property's description, then says which list the value is not in
    expect(await errors('x-component', 'Select', 'Inptu')).toEqual([
      expect.stringMatching(/^input or layout widget from the registry .*: unknown widget name, not in src\/widgets\/names\.ts; e\.g\. "Input"/),
    ]);
    expect(await errors('widget', 'EllipsisText', 'Datetime')).toEqual([expect.stringMatching(/^display widget from the registry .*unknown widget name/)]);
    expect(await errors('x-enum', 'policy_channel', 'policy_chanel')).toEqual([
      expect.stringMatching(/^enum id in schemas\/enums: options .*unknown enum id, not in a file in schemas\/enums/),
    ]);
    expect(await errors('enum', 'policy_channel', 'nope')).toEqual([expect.stringMatching(/^enum id in schemas\/enums: shows the label .*unknown enum id/)]);
    expect(await errors('permission', 'intelligent_text.text.learn.policy_management', 'intelligent_text.text.learn.nope')).toEqual([
      expect.stringMatching(/^permission key needed to open the page .*unknown permission key, not in the flattened permission manifest/),
    ]);
    expect(await errors('api', 'GET shop/policy/list', 'GET shop/policy/lists')).toEqual([
      expect.stringMatching(/^the list call: "METHOD path" .*unknown API, not in the server route table/),
    ]);
  });

  it('accepts fragment references ($ref) and explains them on hover', async () => {
    for (const file of ['schemas/pages/intelligent_text/shop.list.json', 'schemas/pages/intelligent_voice/shop.list.json', 'schemas/forms/intelligent_voice/shop.form.json']) {
      const text = readFileSync(path.join(root, file), 'utf8');
      const doc = TextDocument.create(pathToFileURL(path.join(root, file)).href, 'json', 1, text);
      const json = ls.parseJSONDocument(doc);
      expect((await ls.doValidation(doc, json)).map((d) => d.message), file).toEqual([]);
      const hover = await ls.doHover(doc, doc.positionAt(text.indexOf('"$ref"') + 2), json);
      expect(JSON.stringify(hover?.contents)).toMatch(/a shared fragment from schemas\/fragments/);
    }
  });

  it('explains a property on hover', async () => {
    const { text, offset } = edit('x-enum', 'policy_channel', 'policy_channel');
    const { doc, json } = open(text);
    const hover = await ls.doHover(doc, doc.positionAt(offset), json);
    expect(JSON.stringify(hover?.contents)).toMatch(/enum id in schemas\/enums: options/);
  });
});

describe('editor support in a fragment, given only the repo settings (.vscode/settings.json)', () => {
  const FRAGMENT = 'schemas/fragments/pages/shop.list.json';
  // the schema associations as VS Code reads them from the workspace settings: a fileMatch starting with "/" is relative to the folder
  const settings = JSON.parse(readFileSync(path.join(root, '.vscode/settings.json'), 'utf8')) as { 'json.schemas': Array<{ fileMatch: string[]; url: string }> };
  const folder = pathToFileURL(root).href;
  const byFolder = getLanguageService({ schemaRequestService: async (uri) => readFileSync(fileURLToPath(uri), 'utf8') });
  byFolder.configure({
    validate: true,
    allowComments: false,
    schemas: settings['json.schemas'].map((s) => ({ uri: new URL(s.url, `${folder}/`).href, fileMatch: s.fileMatch.map((f) => `${folder}${f}`) })),
  });
  // without its own `$schema` line: the mapping alone must do
  // (and with one widget named where the defaults would give it, to complete at)
  const text = readFileSync(path.join(root, FRAGMENT), 'utf8')
    .replace(/^\s*"\$schema": "[^"]*",\n/m, '')
    .replace('"x-enum": "shop_type"', '"x-component": "Select", "x-enum": "shop_type"');
  const at = (needle: string, replacement: string) => {
    const i = text.indexOf(needle);
    if (i < 0) throw new Error(`${needle} not in ${FRAGMENT}`);
    const prop = needle.slice(0, needle.indexOf(':') + 2);
    const edited = `${text.slice(0, i)}${prop}${JSON.stringify(replacement)}${text.slice(i + needle.length)}`;
    const doc = TextDocument.create(pathToFileURL(path.join(root, FRAGMENT)).href, 'json', 1, edited);
    return { doc, json: byFolder.parseJSONDocument(doc), offset: i + prop.length + 1 };
  };
  const complete = async (needle: string) => {
    const { doc, json, offset } = at(needle, '');
    const list = await byFolder.doComplete(doc, doc.positionAt(offset), json);
    return (list?.items ?? []).map((i) => (i.textEdit?.newText ?? i.insertText ?? i.label).replace(/^"|"$/g, ''));
  };

  it('has the $schema line in the file and no diagnostics without it', async () => {
    expect(readFileSync(path.join(root, FRAGMENT), 'utf8')).toContain('"$schema": "../../meta/page-fragment.schema.json"');
    const doc = TextDocument.create(pathToFileURL(path.join(root, FRAGMENT)).href, 'json', 1, text);
    expect((await byFolder.doValidation(doc, byFolder.parseJSONDocument(doc))).map((d) => d.message)).toEqual([]);
  });

  it('completes widget names and enum ids inside the fragment', async () => {
    const widgets = await complete('"x-component": "Select"');
    expect(widgets).toContain('Input');
    expect(widgets).toContain('DatePicker.RangePicker');
    const enums = await complete('"x-enum": "env"');
    expect(enums).toContain('env');
    expect(enums).toContain('shop_type');
  });

  it('flags an unknown widget there', async () => {
    const { doc, json, offset } = at('"x-component": "Select"', 'Inptu');
    const line = doc.positionAt(offset).line;
    const diagnostics = await byFolder.doValidation(doc, json, { schemaValidation: 'error' });
    const here = diagnostics.filter((d) => d.severity === 1 && d.range.start.line === line).map((d) => (typeof d.message === 'string' ? d.message : d.message.value));
    expect(here.join('\n')).toMatch(/unknown widget name/);
  });
});
