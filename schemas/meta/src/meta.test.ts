import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { readEditorValues } from '../../../scripts/lib/project-inputs.js';
import { VALUE_DEFS, renderMetaFiles, runtimeMetaSchemas, stripEditorValues } from './files.js';
import { renderValidatorFiles } from './validators.js';
import { TEXT_KEYS, SUPPORTED_SCHEMA_VERSIONS } from './index.js';

const metaDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const projectRoot = join(metaDir, '..', '..');

type Node = Record<string, unknown>;

/** `path` of every property (an entry of a `properties` map, at any depth) of a JSON Schema document, with its schema. */
function properties(doc: unknown, path = '#'): Array<[string, Node]> {
  const out: Array<[string, Node]> = [];
  const walk = (n: unknown, p: string): void => {
    if (Array.isArray(n)) return n.forEach((x, i) => walk(x, `${p}/${i}`));
    if (!n || typeof n !== 'object') return;
    for (const [k, v] of Object.entries(n as Node)) {
      if (['enum', 'const', 'examples', 'default', 'required'].includes(k)) continue; // data, not schemas
      if (k === 'properties' || k === 'patternProperties' || k === '$defs') {
        for (const [name, sub] of Object.entries(v as Node)) {
          if (k === 'properties') out.push([`${p}/properties/${name}`, sub as Node]);
          walk(sub, `${p}/${k}/${name}`);
        }
      } else walk(v, `${p}/${k}`);
    }
  };
  walk(doc, path);
  return out;
}

describe('schema language meta-schemas', () => {
  it('committed JSON equals what the typed source generates (run npm run schemas:meta)', async () => {
    for (const [name, text] of Object.entries(renderMetaFiles(await readEditorValues(projectRoot)))) {
      expect(readFileSync(join(metaDir, name), 'utf8') === text, `${name} is stale: run npm run schemas:meta`).toBe(true);
    }
    for (const [file, text] of Object.entries(renderValidatorFiles())) {
      expect(readFileSync(join(metaDir, '..', '..', file), 'utf8') === text, `${file} is stale`).toBe(true);
    }
  });

  it('every property has a description and an example (what an editor shows on hover)', () => {
    const missing: string[] = [];
    let count = 0;
    for (const [name, text] of Object.entries(renderMetaFiles())) {
      for (const [path, node] of properties(JSON.parse(text))) {
        count++;
        if (typeof node.description !== 'string' || !node.description.trim()) missing.push(`${name}${path}: no description`);
        if (!Array.isArray(node.examples) || !node.examples.length) missing.push(`${name}${path}: no examples`);
      }
    }
    expect(count).toBeGreaterThan(200);
    expect(missing, 'add doc(schema, description, examples) in schemas/meta/src').toEqual([]);
  });

  it('the published files enumerate widgets, enums, permissions and APIs; the runtime validators keep the patterns', async () => {
    const values = await readEditorValues(projectRoot);
    const list = JSON.parse(renderMetaFiles(values)['list.schema.json']) as { $defs: Record<string, { enum: string[] }> };
    expect(list.$defs[VALUE_DEFS.widgets.def].enum).toContain('Input');
    expect(list.$defs[VALUE_DEFS.enums.def].enum).toContain('policy_channel');
    expect(list.$defs[VALUE_DEFS.permissions.def].enum).toContain('admin_center');
    expect(list.$defs[VALUE_DEFS.apis.def].enum).toContain('GET shop/list');
    const runtime = JSON.stringify(runtimeMetaSchemas());
    for (const v of Object.values(VALUE_DEFS)) expect(runtime.includes(v.def), v.def).toBe(false);
    expect(/"(description|examples)":["[]/.test(runtime), 'hover text in the runtime schemas').toBe(false);
    // the examples an editor offers next to the list are in it
    const wrong: string[] = [];
    for (const [name, text] of Object.entries(renderMetaFiles(values))) {
      const doc = JSON.parse(text) as { $defs: Record<string, { enum: string[] }> };
      for (const [path, node] of properties(doc)) {
        const ref = (node.allOf as Array<{ $ref?: string }> | undefined)?.[0]?.$ref;
        if (!ref) continue;
        const allowed = doc.$defs[ref.replace('#/$defs/', '')].enum;
        for (const ex of node.examples as unknown[]) if (!allowed.includes(ex as string)) wrong.push(`${name}${path}: example ${JSON.stringify(ex)}`);
      }
    }
    expect(wrong).toEqual([]);
    // without the lists an editor file is the runtime structure plus hover text
    const stripped = stripEditorValues(list) as Node;
    expect(JSON.stringify(stripped).includes('PermissionKeys')).toBe(false);
  });

  it('every meta-schema compiles in one ajv instance', () => {
    const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true });
    for (const text of Object.values(renderMetaFiles({ widgets: ['Input'], enums: ['yes_no'], permissions: ['admin_center'], apis: ['GET role/list'] }))) {
      expect(() => ajv.compile(JSON.parse(text))).not.toThrow();
    }
  });

  it('accepts a minimal list and refuses an unknown property with a pointer', () => {
    const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true });
    const validate = ajv.compile(JSON.parse(renderMetaFiles()['list.schema.json']));
    const ok = {
      $schema: '../../meta/list.schema.json',
      id: 'demo.thing.list',
      kind: 'list',
      schemaVersion: 1,
      version: 1,
      module: 'admin_center',
      title: 'admin.demo.title',
      data: { api: 'GET thing/list' },
      columns: [{ key: 'name', title: 'admin.demo.name' }],
      rowActions: [{ key: 'del', type: 'request', label: 'admin.demo.del', api: 'POST thing/delete', body: { id: '{{ record.id }}' } }],
    };
    expect(validate(ok), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...ok, columns: [{ key: 'name', title: 'admin.demo.name', colour: 'red' }] })).toBe(false);
    expect(validate.errors?.some((e) => e.instancePath === '/columns/0')).toBe(true);
  });

  it('exports language constants for the checker', () => {
    expect(SUPPORTED_SCHEMA_VERSIONS).toContain(1);
    expect(TEXT_KEYS).toContain('title');
  });
});
