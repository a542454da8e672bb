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
