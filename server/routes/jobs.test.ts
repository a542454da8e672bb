/**
 * The Jobs page names every job kind the engine runs: a label in both locales and an option in
 * the page's kind filter and column; every record type job/of serves maps to a real page key.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allPermissionKeys } from '../../src/contract/permission-manifest.js';
import { diskPermissionTree } from '../schemas/permission-tree.js';
import { jobKinds } from '../jobs/kinds.js';
import { REF_PAGE_KEYS } from './jobs.js';

const json = (p: string) => JSON.parse(readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8'));
const at = (tree: unknown, dotted: string) => dotted.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], tree);

describe('Jobs page labels', () => {
  const page = json('schemas/pages/admin_center/jobs.json');
  const filterKinds = page.filters.properties.kind.enum.map((o: { value: string }) => o.value);
  const columnKinds = page.columns.find((c: { key: string }) => c.key === 'kind').widgetProps.options.map((o: { value: string }) => o.value);

  it('every job kind has a label in both locales and an option on the page', () => {
    for (const lng of ['zh-CN', 'en-US']) {
      const texts = json(`src/locales/${lng}/jobs.json`);
      for (const k of jobKinds) expect(typeof at(texts, `kind.${k.kind}`), `${lng} jobs.kind.${k.kind}`).toBe('string');
    }
    const kinds = jobKinds.map((k) => k.kind).sort();
    expect([...filterKinds].sort()).toEqual(kinds);
    expect([...columnKinds].sort()).toEqual(kinds);
  });

  it('every record type of job/of names a page key of the manifest and has a label', () => {
    const keys = allPermissionKeys(diskPermissionTree());
    for (const [ref, key] of Object.entries(REF_PAGE_KEYS)) expect(keys.has(key), `${ref}: ${key}`).toBe(true);
    const refOptions = page.columns.find((c: { key: string }) => c.key === 'ref_type').widgetProps.options.map((o: { value: string }) => o.value);
    expect([...refOptions].sort()).toEqual(Object.keys(REF_PAGE_KEYS).sort());
    for (const lng of ['zh-CN', 'en-US']) {
      const texts = json(`src/locales/${lng}/jobs.json`);
      for (const ref of Object.keys(REF_PAGE_KEYS)) expect(typeof at(texts, `ref.${ref}`), `${lng} jobs.ref.${ref}`).toBe('string');
    }
  });
});
