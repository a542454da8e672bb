import { describe, expect, it } from 'vitest';
import { diffRows } from './AuditDiff.js';

describe('diffRows', () => {
  it('lists changed fields, and arrays as removed / added items', () => {
    const rows = diffRows({ name: 'a', ids: [1, 5, 6, 12], nested: { x: 1 } }, { name: 'b', ids: [1, 6, 12, 18, 19], nested: { x: 2 } });
    expect(rows).toEqual([
      { key: 'name', path: 'name', before: 'a', after: 'b' },
      { key: 'ids', path: 'ids', before: '5', after: '18, 19' },
      { key: 'nested.x', path: 'nested.x', before: '1', after: '2' },
    ]);
  });
  it('shows a created record (no before) field by field', () => {
    expect(diffRows({}, { name: 'n', ids: [2] })).toEqual([
      { key: 'name', path: 'name', before: '', after: 'n' },
      { key: 'ids', path: 'ids', before: '', after: '[2]' },
    ]);
  });
});
