import './testing/dom-polyfills.js';
import { act, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { RuntimeContext } from '../runtime/context.js';
import { createRegistry, UnknownWidgetError } from '../runtime/registry.js';
import { prepareFormilySchema } from '../runtime/formily-schema.js';
import { createSchemaLoader } from '../runtime/loader.js';
import { WIDGET_NAMES } from '../contract/widget-names.js';
import { createDefaultRegistry, defaultEntries, formilyComponents } from './registry.js';
import { preloadSchemaWidgets, schemaWidgetNames } from './preload.js';
import { createFakeEnv } from './testing/env.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readExpandedSchema } from '../../server/schemas/expand.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shopList = readExpandedSchema(join(root, 'schemas/pages/intelligent_text/shop.list.json'), join(root, 'schemas'));

describe('widget registry', () => {
  it('names.ts lists exactly the registry keys', () => {
    expect([...createDefaultRegistry().names].sort()).toEqual([...WIDGET_NAMES].sort());
  });

  it('a duplicate registration throws', () => {
    const dup = defaultEntries()[0];
    expect(() => createDefaultRegistry({ extra: [dup] })).toThrow(/registered twice/);
    expect(() => createRegistry([dup, dup], { fallback: () => () => null })).toThrow(/Input/);
  });

  it('an unknown name throws in strict mode (tests), naming widget and pointer', () => {
    const reg = createDefaultRegistry({ strict: true });
    expect(() => reg.get('Fancy', '/columns/2/widget')).toThrow(UnknownWidgetError);
    expect(() => reg.get('Fancy', '/columns/2/widget')).toThrow(/Fancy.*\/columns\/2\/widget/);
  });

  it('an unknown name renders a visible error box in the app', () => {
    const reg = createDefaultRegistry();
    const env = createFakeEnv({} as never, { root });
    const Comp = reg.get('Fancy', '/columns/2/widget');
    render(
      createElement(RuntimeContext.Provider, { value: { env, registry: reg, loader: createSchemaLoader(env.http), user: null } }, createElement(Comp)),
    );
    expect(screen.getByTestId('unknown-widget').textContent).toContain('Fancy');
    expect(screen.getByTestId('unknown-widget').textContent).toContain('/columns/2/widget');
  });

  it('unknown x-component names never reach Formily (it would create a DOM tag)', () => {
    const opts = {
      t: (k: string) => k,
      can: () => true,
      enums: {},
      locale: 'en-US' as const,
      hasWidget: (n: string) => n === 'Input',
      unknownWidget: 'UnknownWidget',
      pointer: '/schema',
    };
    const schema = { type: 'object' as const, properties: { a: { type: 'string' as const, 'x-component': 'Inptu' } } };
    expect(() => prepareFormilySchema(schema, { ...opts, strict: true })).toThrow(/Inptu.*\/schema\/properties\/a\/x-component/);
    const out = prepareFormilySchema(schema, { ...opts, strict: false }) as { properties: Record<string, Record<string, unknown>> };
    expect(out.properties.a['x-component']).toBe('UnknownWidget');
    expect(out.properties.a['x-component-props']).toEqual({ name: 'Inptu', pointer: '/schema/properties/a/x-component' });
  });

  it('a lazy widget loads once, keeps one stable component and shows a placeholder until loaded', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let loads = 0;
    const Hello = ({ value }: { value?: unknown }) => createElement('b', { 'data-testid': 'hello' }, String(value));
    const reg = createRegistry(
      [{ name: 'Hello', kind: 'display', load: () => (loads++, gate.then(() => Hello as never)) }],
      { fallback: () => () => null },
    );
    const Comp = reg.get('Hello', '/x');
    expect(reg.get('Hello', '/y')).toBe(Comp);
    expect(reg.components().Hello).toBe(Comp);
    expect(reg.isLoaded('Hello')).toBe(false);
    render(createElement(Comp, { value: 'hi' }));
    expect(document.querySelector('[data-widget-loading="Hello"]')).not.toBeNull();
    await act(async () => {
      release();
      await reg.preload(['Hello', 'Nope']);
    });
    expect((await screen.findByTestId('hello')).textContent).toBe('hi');
    expect(loads).toBe(1);
    expect(reg.isLoaded('Hello')).toBe(true);
  });

  it('preloadSchemaWidgets loads what a schema names, so its page renders without suspending', async () => {
    const names = schemaWidgetNames(shopList);
    expect(names).toEqual(expect.arrayContaining(['FormItem', 'Input', 'Select', 'DatePicker.RangePicker', 'EnumTag', 'DateTime']));
    expect(schemaWidgetNames({ columns: [{ key: 'a', enum: 'env' }, { key: 'b', enum: 'env', widget: 'Text' }] })).toEqual(['EnumTag', 'Text']);
    const reg = createDefaultRegistry();
    await preloadSchemaWidgets(reg, { id: 'x', hash: 'h', schema: shopList, enums: {} });
    for (const n of names) expect(reg.isLoaded(n)).toBe(true);
    expect(reg.isLoaded('Upload')).toBe(false);
  });
});

describe("Formily's components from the registry", () => {
  it('hands over loaded widgets themselves (no wrapper per field) and never mutates a library export', async () => {
    const reg = createDefaultRegistry();
    const before = formilyComponents(reg) as Record<string, Record<string, unknown>>;
    // not loaded yet: the lazy wrappers
    expect(before.FormItem).not.toBe(undefined);
    expect((before.FormItem as { displayName?: string }).displayName).toBe('Widget(FormItem)');
    await reg.preload(['FormItem', 'Input', 'DatePicker', 'DatePicker.RangePicker', 'Select']);
    const c = formilyComponents(reg) as Record<string, Record<string, unknown>>;
    expect(c.FormItem).toBe(reg.loaded('FormItem'));
    expect(c.Select).toBe(reg.loaded('Select'));
    // a parent whose registered child is not its own member (the RangePicker with the date presets,
    // inputs/DateRange.tsx) is a copy carrying that child; the library's DatePicker is untouched
    const datePicker = reg.loaded('DatePicker') as unknown as Record<string, unknown>;
    expect(c.DatePicker).not.toBe(datePicker);
    expect(c.DatePicker.RangePicker).toBe(reg.loaded('DatePicker.RangePicker'));
    expect(datePicker.RangePicker).not.toBe(reg.loaded('DatePicker.RangePicker'));
    // the bare Input has no TextArea: a copy of it (same forwardRef render) takes the child's wrapper
    const input = reg.loaded('Input') as unknown as Record<string, unknown>;
    expect(c.Input).not.toBe(input);
    expect(c.Input.render).toBe(input.render);
    expect(c.Input.TextArea).toBeDefined();
    expect(input.TextArea).toBeUndefined();
  });
});
