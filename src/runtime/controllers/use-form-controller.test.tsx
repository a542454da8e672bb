import '../../widgets/testing/dom-polyfills.js';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { freshDataClient } from '../data-layer/testing.js';
import type { RuntimeEnv } from '../env.js';
import type { FormSchema } from '../types.js';
import { useFormController } from './use-form-controller.js';

const schema = {
  $schema: '../../meta/form.schema.json',
  id: 'demo.form',
  kind: 'form',
  schemaVersion: 1,
  version: 1,
  module: 'admin_center',
  title: 'admin.demo.title',
  presentation: 'modal',
  modes: {
    add: { submit: { api: 'POST thing/create' } },
    edit: { submit: { api: 'POST thing/update', body: { id: '{{ number(params.id) }}' } } },
  },
  load: { api: 'GET thing/detail', params: { id: '{{ params.id }}' } },
  successMessage: 'admin.action.saved',
  schema: { type: 'object', properties: { name: { type: 'string' }, box: { type: 'void', properties: { email: { type: 'string' } } } } },
} as unknown as FormSchema;

function env(post: (path: string, body: unknown) => Promise<unknown>) {
  return {
    http: { get: vi.fn(async () => ({ id: 4, name: 'loaded', email: 'a@b.c', created_at: 'x' })), post: vi.fn(post) },
    notify: { success: vi.fn(), error: vi.fn(), info: vi.fn() },
    t: (k: string) => k,
  } as unknown as RuntimeEnv & { http: { post: ReturnType<typeof vi.fn> } };
}

describe('useFormController', () => {
  it('loads for edit and submits only schema fields plus the body mapping', async () => {
    const e = env(async () => ({}));
    const { result } = renderHook(() => useFormController(schema, { env: e, mode: 'edit', params: { id: '4' } }), { wrapper: freshDataClient().wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.form.values).toMatchObject({ name: 'loaded' });
    let outcome: unknown;
    await act(async () => {
      outcome = await result.current.submit();
    });
    expect(e.http.post).toHaveBeenCalledWith('thing/update', { name: 'loaded', email: 'a@b.c', id: 4 }, { silent: true });
    expect(e.notify.success).toHaveBeenCalledWith('admin.action.saved');
    expect(outcome).toEqual({ then: 'close' });
  });

  it('puts 40001 field errors onto the Formily fields', async () => {
    const e = env(async () => {
      throw Object.assign(new Error('validation failed'), { code: 40001, data: { errors: [{ field: 'name', message: 'name taken' }] } });
    });
    const { result } = renderHook(() => useFormController(schema, { env: e, mode: 'add', params: {} }), { wrapper: freshDataClient().wrapper });
    await act(async () => {
      result.current.form.createField({ name: 'name' });
      result.current.form.setValues({ name: 'dup' });
    });
    let outcome: unknown = 'unset';
    await act(async () => {
      outcome = await result.current.submit();
    });
    expect(outcome).toBeNull();
    const field = result.current.form.query('name').take();
    expect(field && 'selfErrors' in field ? field.selfErrors : []).toEqual(['name taken']);
  });

  it('returns a resultDialog reply (translated, with the value to copy) instead of a toast', async () => {
    const e = env(async () => ({ password: 'Gen3rated-pw', generated: true }));
    const withDialog = {
      ...schema,
      modes: {
        edit: {
          submit: {
            api: 'POST thing/reset',
            includeValues: false,
            body: { id: '{{ number(params.id) }}' },
            resultDialog: { title: 'admin.demo.done', message: 'admin.demo.doneText', copy: 'password' },
          },
        },
      },
    } as unknown as FormSchema;
    const { result } = renderHook(() => useFormController(withDialog, { env: e, mode: 'edit', params: { id: '4' } }), { wrapper: freshDataClient().wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    let outcome: unknown;
    await act(async () => {
      outcome = await result.current.submit();
    });
    expect(e.http.post).toHaveBeenCalledWith('thing/reset', { id: 4 }, { silent: true });
    expect(e.notify.success).not.toHaveBeenCalled();
    expect(outcome).toEqual({ then: 'close', result: { title: 'admin.demo.done', message: 'admin.demo.doneText', copy: 'Gen3rated-pw' } });
  });

  it('runs the submit check first and refuses (message on the field, no submit) when the reply says so', async () => {
    const checked = {
      ...schema,
      modes: {
        add: {
          submit: {
            api: 'POST thing/create',
            check: { api: 'POST thing/exists', body: { name: '{{ values.name }}' }, refuseWhen: 'exists', message: 'admin.demo.taken', field: 'name' },
          },
        },
      },
    } as unknown as FormSchema;
    let exists = true;
    const e = env(async (path) => (path === 'thing/exists' ? { exists } : { id: 9 }));
    const { result } = renderHook(() => useFormController(checked, { env: e, mode: 'add', params: {} }), { wrapper: freshDataClient().wrapper });
    await act(async () => {
      result.current.form.createField({ name: 'name' });
      result.current.form.setValues({ name: 'dup' });
    });
    let outcome: unknown = 'unset';
    await act(async () => {
      outcome = await result.current.submit();
    });
    expect(outcome).toBeNull();
    expect(e.http.post.mock.calls.map((c) => c[0])).toEqual(['thing/exists']);
    expect(e.http.post).toHaveBeenCalledWith('thing/exists', { name: 'dup' }, { silent: true });
    expect((result.current.form.query('name').take() as { selfErrors?: unknown } | undefined)?.selfErrors).toEqual(['admin.demo.taken']);
    expect(e.notify.error).toHaveBeenCalledWith('admin.demo.taken');
    exists = false;
    await act(async () => {
      outcome = await result.current.submit();
    });
    expect(e.http.post.mock.calls.map((c) => c[0])).toEqual(['thing/exists', 'thing/exists', 'thing/create']);
    expect(outcome).toEqual({ then: 'close' });
  });

  it('saves the reply as a file when the submit is a download (a download modal), nothing posted', async () => {
    const e = env(async () => ({}));
    const download = vi.fn(async () => undefined);
    (e.http as unknown as { download: typeof download }).download = download;
    const asDownload = { ...schema, modes: { add: { submit: { api: 'POST thing/export', download: { fileName: 'things.csv' } } } } } as unknown as FormSchema;
    const { result } = renderHook(() => useFormController(asDownload, { env: e, mode: 'add', params: {} }), { wrapper: freshDataClient().wrapper });
    await act(async () => {
      result.current.form.setValues({ name: 'a' });
    });
    let outcome: unknown;
    await act(async () => {
      outcome = await result.current.submit();
    });
    expect(download).toHaveBeenCalledWith('thing/export', { name: 'a' }, { fileName: 'things.csv', silent: true });
    expect(e.http.post).not.toHaveBeenCalled();
    expect(e.notify.success).toHaveBeenCalledWith('admin.action.saved');
    expect(outcome).toEqual({ then: 'close' });
  });
});
