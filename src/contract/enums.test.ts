import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENUM_IDS, enumColor, enumLabel, findEnumItem, type EnumDef } from './enums.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas/enums');
const load = (id: string) => JSON.parse(readFileSync(path.join(dir, `${id}.json`), 'utf8')) as EnumDef;

describe('enums contract', () => {
  it('ENUM_IDS lists exactly the files of schemas/enums', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
    expect([...ENUM_IDS].sort()).toEqual(files);
  });

  it('carries the spec values', () => {
    expect(load('task_status').items.map((i) => [i.value, i.label['zh-CN']])).toEqual([
      ['pending', '待开始'],
      ['running', '进行中'],
      ['finished', '已完成'],
      ['stopped', '已终止'],
      ['pausing', '已暂停'],
    ]);
    expect(load('task_status_legacy').items.map((i) => i.value)).toEqual([0, 1, 2]);
    expect(load('policy_source_type').items.map((i) => i.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(load('message_type').items.map((i) => i.value)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    expect(load('mail_direction_type').items.map((i) => i.value)).toEqual([1, 2, 3, 4, 5, 6]);
    // the spec's results of placed calls (tag "placed", read by the server), and the dry run's own result 5
    expect(load('call_result').items.filter((i) => i.tags?.includes('placed')).map((i) => i.value)).toEqual([1, 2, 3, 4]);
    expect(load('call_result').items.map((i) => i.value)).toEqual([1, 2, 3, 4, 5]);
    expect(load('feedback_handle_status').items.map((i) => i.value)).toEqual([0, 1, 2, 3]);
    expect(load('feedback_status').items).toHaveLength(8);
    expect(load('permission_type').items.map((i) => [i.value, i.label['en-US']])).toEqual([
      [1, 'Menu'],
      [2, 'Page'],
      [3, 'Button'],
      [4, 'Module'],
    ]);
    expect(load('env').items.map((i) => i.value)).toEqual(['dev', 'pre', 'prod', 'pre2', 'pre3']);
    expect(load('shop_source').items.map((i) => i.value)).toEqual([0, 1, 2]);
  });

  it('looks labels, colours and options up (numeric values also as strings)', () => {
    const def = load('account_status');
    expect(findEnumItem(def, '1')?.value).toBe(1);
    expect(enumLabel(def, 0, 'zh-CN')).toBe('禁用');
    expect(enumLabel(def, 7, 'en-US')).toBe('7');
    expect(enumLabel(def, null, 'en-US')).toBe('');
    expect(enumColor(def, 1)).toBe('success');
  });
});
