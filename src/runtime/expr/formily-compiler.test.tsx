import '../../widgets/testing/dom-polyfills.js';
import { createForm } from '@formily/core';
import { FormProvider, createSchemaField } from '@formily/react';
import { act, render } from '@testing-library/react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installSafeCompiler, safeCompile } from './formily-compiler.js';

const RealFunction = globalThis.Function;
beforeAll(() => {
  installSafeCompiler();
  // Any `new Function` now fails loudly, as it would under a CSP without 'unsafe-eval'.
  globalThis.Function = new Proxy(RealFunction, {
    construct() {
      throw new Error('new Function called');
    },
    apply() {
      throw new Error('Function called');
    },
  });
});
afterAll(() => {
  globalThis.Function = RealFunction;
});

it('x-reactions and {{ }} run through the safe evaluator, never new Function', async () => {
  const Input = (p: { value?: string }) => <span>{p.value ?? ''}</span>;
  const SchemaField = createSchemaField({ components: { Input } });
  const form = createForm();
  render(
    <FormProvider form={form}>
      <SchemaField
        scope={{ mode: 'edit' }}
        schema={{
          type: 'object',
          properties: {
            kind: { type: 'number', 'x-component': 'Input', default: 1 },
            route: {
              type: 'string',
              'x-component': 'Input',
              'x-visible': "{{ mode === 'edit' }}",
              'x-reactions': { dependencies: ['kind'], fulfill: { state: { visible: '{{ $deps[0] !== 3 }}' } } },
            },
          },
        }}
      />
    </FormProvider>,
  );
  expect(form.query('route').take()?.visible).toBe(true);
  await act(async () => form.setValuesIn('kind', 3));
  expect(form.query('route').take()?.visible).toBe(false);
});

it('refuses reaction function bodies', () => {
  expect(safeCompile('function(){ alert(1) }', {})).toBeUndefined();
  expect(safeCompile('constructor', {})).toBeUndefined();
});

it('a reaction can feed a picker its request params from another field (plan order: the user\'s shops)', async () => {
  const seen: unknown[] = [];
  const Picker = (p: { params?: Record<string, unknown>; api?: string }) => {
    seen.push(p.params);
    return <span>{p.api}</span>;
  };
  const SchemaField = createSchemaField({ components: { Picker } });
  const form = createForm();
  render(
    <FormProvider form={form}>
      <SchemaField
        schema={{
          type: 'object',
          properties: {
            user_id: { type: 'number', 'x-component': 'Picker' },
            shop_id: {
              type: 'number',
              'x-component': 'Picker',
              'x-component-props': { api: 'GET user/shop-mail-list', params: {} },
              'x-reactions': { dependencies: ['user_id'], fulfill: { state: { componentProps: { params: { id: '{{ $deps[0] }}' } } } } },
            },
          },
        }}
      />
    </FormProvider>,
  );
  await act(async () => form.setValuesIn('user_id', 7));
  const props = form.query('shop_id').take()?.componentProps as { api: string; params: unknown };
  expect(props.api).toBe('GET user/shop-mail-list');
  expect(props.params).toEqual({ id: 7 });
  expect(seen.at(-1)).toEqual({ id: 7 });
});
