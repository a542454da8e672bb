import { isValidElement, type ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { ColumnSpec } from '../../runtime/types.js';
import { createDefaultRegistry } from '../registry.js';
import { buildColumns, titleFloor } from './columns.js';

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
      enums: {},
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

describe('list columns compiled once', () => {
  const enums = {
    shop_env: { id: 'shop_env', items: [{ value: 1, label: { 'zh-CN': '生产', 'en-US': 'Production' }, color: 'green' }] },
  } as never;
  const specs = [
    { key: 'env', title: 't.env', enum: 'shop_env' },
    { key: 'test', title: 't.test', widget: 'BooleanText' },
    { key: 'kind', title: 't.kind', widget: 'EnumTag', widgetProps: { options: [{ value: 'a', label: 'opt.a', color: 'blue' }] } },
  ] as unknown as ColumnSpec[];

  it('draws enum and yes/no cells as tags without a component per cell once their code is loaded', async () => {
    const registry = createDefaultRegistry();
    await registry.preload(['EnumTag', 'BooleanText']);
    const cols = buildColumns(specs, { env, registry, enums, settings: { order: [], hidden: [], widths: {} }, order: specs.map((c) => c.key), sorter: {} });
    const cell = (i: number, row: Record<string, unknown>) =>
      (cols[i] as { render: (v: unknown, r: unknown) => unknown }).render(undefined, row) as ReactElement<{ color?: string; children?: unknown }>;
    const tag = cell(0, { env: 1 });
    // antd's Tag itself, not the EnumTag widget (nor its lazy wrapper)
    expect(typeof tag.type).not.toBe('string');
    expect((tag.type as { displayName?: string }).displayName).toBe('Tag');
    expect(tag.props.color).toBe('green');
    expect(tag.props.children).toBe('Production');
    // a value matches by its string form, as the widget does; unknown values show themselves
    expect(cell(0, { env: '1' }).props.children).toBe('Production');
    expect(cell(0, { env: 9 }).props.children).toBe('9');
    expect((cell(0, { env: null }) as ReactElement).type).toBe('span');
    expect(cell(1, { test: 1 }).props.children).toBe('runtime.bool.yes');
    expect(cell(1, { test: false }).props.children).toBe('runtime.bool.no');
    // inline options (i18n keys) when no enum is named
    expect(cell(2, { kind: 'a' }).props).toMatchObject({ color: 'blue', children: 'opt.a' });
  });

  it('falls back to the widget as a component while its code is not loaded', () => {
    const cols = buildColumns(specs, {
      env,
      registry: createDefaultRegistry(),
      enums,
      settings: { order: [], hidden: [], widths: {} },
      order: specs.map((c) => c.key),
      sorter: {},
    });
    const el = (cols[0] as { render: (v: unknown, r: unknown) => unknown }).render(undefined, { env: 1 }) as ReactElement<{ value: unknown; enumId: string }>;
    expect(el.props).toMatchObject({ value: 1, enumId: 'shop_env' });
  });

  it('widens a column so no word of its title breaks mid-word (a Latin word; Chinese breaks between characters)', () => {
    const specs = [
      { key: 'a', title: 'Interruptions', width: 60, sorter: true },
      { key: 'b', title: '中断次数', width: 60 },
      { key: 'c', title: 'Conversation' },
    ] as unknown as ColumnSpec[];
    const cols = buildColumns(specs, { env, registry: createDefaultRegistry(), enums: {}, settings: { order: [], hidden: [], widths: {} }, order: ['a', 'b', 'c'], sorter: {} });
    const [a, b, c] = cols as Array<{ width?: number; minWidth?: number }>;
    expect(a.width).toBe(titleFloor('Interruptions', true));
    expect(a.width).toBeGreaterThan(60);
    expect(b.width).toBe(60);
    expect(c.width).toBeUndefined();
    expect(c.minWidth).toBe(titleFloor('Conversation', false));
  });
});
