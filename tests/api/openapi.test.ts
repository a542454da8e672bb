// @db once
/**
 * The served OpenAPI document validates with a standard parser (so clients can be generated
 * from it): fetched from a running server at /api/docs/json, checked by SwaggerParser.validate.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s?.close();
});

describe('OpenAPI document', () => {
  it('is served and passes SwaggerParser.validate', async () => {
    const r = await fetch(new URL('/api/docs/json', s.url));
    expect(r.status).toBe(200);
    const doc = (await r.json()) as any;
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(50);
    let error: unknown;
    try {
      await SwaggerParser.validate(structuredClone(doc));
    } catch (e) {
      error = e;
    }
    expect(error === undefined ? '' : String((error as Error).message).slice(0, 4000)).toBe('');
  });

  it('keeps the number bounds in 3.0 form (exclusiveMinimum as a flag beside minimum)', async () => {
    const doc = (await (await fetch(new URL('/api/docs/json', s.url))).json()) as any;
    const bad: string[] = [];
    const walk = (v: unknown, at: string): void => {
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      for (const k of ['exclusiveMinimum', 'exclusiveMaximum'])
        if (k in o && typeof o[k] !== 'boolean') bad.push(`${at}.${k}`);
      for (const [k, c] of Object.entries(o)) walk(c, `${at}.${k}`);
    };
    walk(doc, '$');
    expect(bad).toEqual([]);
  });
});
