import { describe, expect, it } from 'vitest';
import { columnSettingsKey, orderedKeys } from './column-settings.js';

describe('column settings', () => {
  it('are stored per user and schema', () => {
    expect(columnSettingsKey(7, 'admin_center.role.list')).toBe('bo.columns.7.admin_center.role.list');
    expect(columnSettingsKey(null, 'x.y')).toBe('bo.columns.anon.x.y');
  });

  it('apply the saved order, drop vanished columns and append new ones', () => {
    expect(orderedKeys(['a', 'b', 'c', 'd'], { order: ['c', 'gone', 'a'], hidden: [], widths: {} })).toEqual(['c', 'a', 'b', 'd']);
  });
});
