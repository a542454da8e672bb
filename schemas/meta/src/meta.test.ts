import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { renderMetaFiles } from './files.js';
import { renderValidatorFiles } from './validators.js';
import { TEXT_KEYS, SUPPORTED_SCHEMA_VERSIONS } from './index.js';

const metaDir = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('schema language meta-schemas', () => {
  it('committed JSON equals what the typed source generates (run npm run schemas:meta)', () => {
    for (const [name, text] of Object.entries(renderMetaFiles())) {
      expect(readFileSync(join(metaDir, name), 'utf8'), name).toBe(text);
    }
    for (const [file, text] of Object.entries(renderValidatorFiles())) {
      expect(readFileSync(join(metaDir, '..', '..', file), 'utf8') === text, `${file} is stale`).toBe(true);
    }
  });

  it('every meta-schema compiles in one ajv instance', () => {
    const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true });
    for (const text of Object.values(renderMetaFiles())) expect(() => ajv.compile(JSON.parse(text))).not.toThrow();
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
