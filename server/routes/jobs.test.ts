/**
 * The Jobs pages name every job kind the engine runs through the job_kind enum (labels in both
 * locales there); every record type job/of serves maps to a real page key.
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
  const detail = json('schemas/pages/admin_center/job-detail.json');

  it('the job_kind enum lists exactly the kinds the engine runs, and the Jobs pages read their labels from it', () => {
    // schemas/enums/job_kind.json is the one home of the kinds' labels (issue 22)
    const kinds = json('schemas/enums/job_kind.json').items.map((i: { value: string }) => i.value);
    expect([...kinds].sort()).toEqual(jobKinds.map((k) => k.kind).sort());
    expect(page.filters.properties.kind['x-enum']).toBe('job_kind');
    expect(page.columns.find((c: { key: string }) => c.key === 'kind').enum).toBe('job_kind');
    const items = detail.sections.flatMap((s: { items?: Array<{ key: string; enum?: string }> }) => s.items ?? []);
    expect(items.find((i: { key: string }) => i.key === 'kind').enum).toBe('job_kind');
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
