/**
 * Every `voiceCenter.*` string in the call-center schemas (also the ones schemas:check does not
 * read as text: `addonAfter` units, the transcript's `roleLabels`) exists in both locales, and
 * both locale files have the same keys.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DIRS = ['schemas/pages/intelligent_voice/call-center', 'schemas/forms/intelligent_voice/call-center'];
const load = (loc: string) => JSON.parse(fs.readFileSync(path.join(ROOT, `src/locales/${loc}/voiceCenter.json`), 'utf8')) as Record<string, unknown>;

function keys(o: unknown, prefix = ''): string[] {
  if (typeof o !== 'object' || o === null) return [prefix];
  return Object.entries(o).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}
function strings(o: unknown): string[] {
  if (typeof o === 'string') return [o];
  if (typeof o !== 'object' || o === null) return [];
  return Object.values(o).flatMap(strings);
}

describe('voiceCenter locale keys', () => {
  const zh = new Set(keys(load('zh-CN')));
  const en = new Set(keys(load('en-US')));
  it('zh-CN and en-US have the same keys', () => {
    expect([...zh].sort()).toEqual([...en].sort());
  });
  it('every voiceCenter key the schemas name exists', () => {
    const used = DIRS.flatMap((d) => fs.readdirSync(path.join(ROOT, d)).map((f) => JSON.parse(fs.readFileSync(path.join(ROOT, d, f), 'utf8'))))
      .flatMap(strings)
      .filter((s) => s.startsWith('voiceCenter.'))
      .map((s) => s.slice('voiceCenter.'.length));
    expect(used.length).toBeGreaterThan(50);
    for (const k of used) {
      expect(zh.has(k), `zh-CN ${k}`).toBe(true);
      expect(en.has(k), `en-US ${k}`).toBe(true);
    }
    expect(used).toContain('unit.seconds');
    expect(used).toContain('task.latestCallTimeHint');
  });
});
