import { isValidElement, type ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { ColumnSpec } from '../../runtime/types.js';
import { createDefaultRegistry } from '../registry.js';
import { buildColumns } from './columns.js';

const env = { t: (k: string) => k, locale: 'en-US', can: () => true, navigate: vi.fn() } as unknown as RuntimeEnv;
const spec = [
  { key: 'name', title: 't.name' },
  { key: 'created_at', title: 't.created', widget: 'DateTime' },
  { key: 'tags', title: 't.tags', widgetProps: { labelKey: 'label' } },
  { key: 'status', title: 't.status', enum: 'some_enum' },
  { key: 'shop', title: 't.shop', widget: 'Link', widgetProps: { href: '/shops/{{ record.id }}' } },
] as unknown as ColumnSpec[];

describe('list columns', () => {
  it('draws text cells as text (no component per cell); other widgets as components', () => {
    const cols = buildColumns(spec, {
      env,
      registry: createDefaultRegistry(),
      scope: {},
      settings: { order: [], hidden: [], widths: {} },
      order: spec.map((c) => c.key),
      sorter: {},
    });
    const cell = (i: number, row: Record<string, unknown>) => (cols[i] as { render: (v: unknown, r: unknown) => unknown }).render(undefined, row);
    expect(cell(0, { name: 'Ada' })).toBe('Ada');
    expect(cell(0, { name: null })).toBe('-');
    expect(cell(1, { created_at: '2026-03-04T05:06:07' })).toBe('2026-03-04 05:06:07');
    expect(cell(2, { tags: [{ label: 'a' }, { label: 'b' }] })).toBe('a, b');
    expect(isValidElement(cell(3, { status: 1 }))).toBe(true);
    // a link cell is the anchor itself; internal paths go through env.navigate
    const a = cell(4, { id: 7, shop: 'Shop 7' }) as ReactElement<{ href: string; onClick(e: { preventDefault(): void }): void }>;
    expect(a.type).toBe('a');
    expect(a.props.href).toBe('/shops/7');
    a.props.onClick({ preventDefault: () => undefined });
    expect(env.navigate).toHaveBeenCalledWith('/shops/7');
  });
});
