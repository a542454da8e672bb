/** Folding a long filter bar: which filters show, what preloads, and the toggle on a real list schema. */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { FormilyObject } from '../../runtime/types.js';
import { schemaWidgetNames } from '../preload.js';
import { createFakeEnv } from '../testing/env.js';
import { createFakeHttp, readSchemaSet } from '../testing/fixtures.js';
import { renderSchemaPage } from '../testing/render.js';
import { asFirstDrawn, foldedHaveValues, foldFilters } from './filter-fold.js';

afterEach(cleanup);

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const filters = (n: number): FormilyObject => ({
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string', 'x-component': i === n - 1 ? 'DatePicker.RangePicker' : 'Input' }])),
});

describe('foldFilters', () => {
  it('keeps the first six in view and folds the rest, only when two or more would fold', () => {
    expect(foldFilters(filters(10), undefined)).toEqual({ open: ['f0', 'f1', 'f2', 'f3', 'f4', 'f5'], folded: ['f6', 'f7', 'f8', 'f9'] });
    expect(foldFilters(filters(7), undefined).folded).toEqual([]); // one hidden filter is not worth a toggle
    expect(foldFilters(filters(8), 3).open).toEqual(['f0', 'f1', 'f2']);
    expect(foldFilters(filters(10), false).folded).toEqual([]);
    expect(foldFilters(undefined, undefined)).toEqual({ open: [], folded: [] });
  });

  it('counts a folded filter with a value (not empty strings or empty ranges)', () => {
    expect(foldedHaveValues(['a', 'b'], { a: '', b: [] })).toBe(false);
    expect(foldedHaveValues(['a', 'b'], { b: ['2026-01-01', '2026-02-01'] })).toBe(true);
    expect(foldedHaveValues(['a'], { a: 0 })).toBe(true);
  });

  it('leaves folded filters out of what a list preloads, and other kinds or unchecked JSON alone', () => {
    const list = { kind: 'list', filters: filters(10), columns: [{ key: 'x', widget: 'EnumTag' }] };
    expect(schemaWidgetNames(list)).toContain('DatePicker.RangePicker');
    expect(schemaWidgetNames(asFirstDrawn(list))).not.toContain('DatePicker.RangePicker');
    expect(schemaWidgetNames(asFirstDrawn(list))).toContain('EnumTag');
    const form = { kind: 'form', schema: filters(10) };
    expect(asFirstDrawn(form)).toBe(form);
    expect(asFirstDrawn('junk')).toBe('junk');
    expect(asFirstDrawn({ kind: 'list', filters: 5 })).toEqual({ kind: 'list', filters: 5 });
  });
});

describe('the shop list filter bar (10 filters)', () => {
  const set = readSchemaSet(join(root, 'schemas'));
  const page = (p: Record<string, unknown>) => ({ list: [], total: 0, page: p.page, page_size: p.page_size });

  it('shows six, unfolds the rest on the toggle, and folds again', async () => {
    const env = createFakeEnv(createFakeHttp(set, { 'GET shop/list': page }), { root });
    renderSchemaPage('/intelligent_text/shop/list', env);
    const bar = await screen.findByTestId('list-filters', {}, { timeout: 15_000 });
    const toggle = await screen.findByTestId('filter-fold');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(bar.querySelectorAll('.ant-formily-item').length).toBe(6);
    expect(bar.querySelector('.ant-picker')).toBeNull();
    fireEvent.click(toggle);
    await waitFor(() => expect(bar.querySelector('.ant-picker')).not.toBeNull(), { timeout: 10_000 });
    expect(bar.querySelectorAll('.ant-formily-item').length).toBe(10);
    fireEvent.click(screen.getByTestId('filter-fold'));
    await waitFor(() => expect(bar.querySelectorAll('.ant-formily-item').length).toBe(6));
  }, 30_000);

  it('starts unfolded when a folded filter has a value in the URL, and sends it', async () => {
    const http = createFakeHttp(set, { 'GET shop/list': page });
    renderSchemaPage('/intelligent_text/shop/list?is_ka=true', createFakeEnv(http, { root }));
    const toggle = await screen.findByTestId('filter-fold', {}, { timeout: 15_000 });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(screen.getByTestId('list-filters').querySelectorAll('.ant-formily-item').length).toBe(10));
    await waitFor(() => expect(http.calls.find((c) => c.path === 'shop/list')?.data).toMatchObject({ is_ka: true }));
  }, 30_000);
});
