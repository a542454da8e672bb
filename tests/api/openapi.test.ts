// @db once
/**
 * The served OpenAPI document validates with a standard parser (so clients can be generated
 * from it): fetched from a running server at /api/docs/json, checked by SwaggerParser.validate.
 * Every route declares its reply (walked from the route table, as the permission matrix does)
 * and the document shows a reply schema for every operation (issue 22). The route reference of
 * docs/business-api.md is the business routes' own.
 */
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Kind } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeUrl } from '../../server/http/register.js';
import { allRoutes } from '../../server/routes/index.js';
import { routes as businessRoutes } from '../../server/resources/index.js';
import { CHECKED_ROWS } from '../../src/contract/replies/sessions.js';
import { BUSINESS_API_DOC, routeReference, withReference } from '../../scripts/lib/route-reference.js';
import { startServer, type TestServer } from './harness.js';

/**
 * Routes whose reply is still plain JSON Schema, not TypeBox (their handlers return `unknown`):
 * this number only goes down — lower it when a route moves to TypeBox. (243 when the typed
 * replies landed; 251 at the same merge, since the issue-26 page-group routes written beside them
 * — shop introduction, customer config, notes, onboarding — declare plain replies: the first to move;
 * 196 once the hand-written domain routes moved (server/resources/<domain>, the retrieval test);
 * 52 on the other branch once the resource engine's rows, deletes and batches, the permission
 * routes and the ingestion API moved (every route whose reply is `rowSchema` with them); both
 * merged: 0 — every route declares its reply in TypeBox, and this bound keeps it so.)
 */
const PLAIN_REPLIES_AT_MOST = 0;

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

  it('every route of the route table declares its reply', async () => {
    const routes = await allRoutes();
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes.filter((r) => !r.reply || typeof r.reply !== 'object' || Object.keys(r.reply).length === 0);
    expect(missing.map((r) => `${r.method} ${routeUrl(r)}`)).toEqual([]);
    const plain = routes.filter((r) => !(Kind in r.reply)).map((r) => `${r.method} ${routeUrl(r)}`);
    expect(plain.length, `routes with a plain JSON Schema reply:\n${plain.join('\n')}`).toBeLessThanOrEqual(PLAIN_REPLIES_AT_MOST);
  });

  it('shows a reply schema for every operation: the envelope with its data, or the bytes of a file', async () => {
    const doc = (await (await fetch(new URL('/api/docs/json', s.url))).json()) as any;
    const routes = await allRoutes();
    const bad: string[] = [];
    for (const r of routes) {
      const op = doc.paths[routeUrl(r)]?.[r.method.toLowerCase()];
      const content = op?.responses?.['200']?.content as Record<string, { schema?: any }> | undefined;
      const entries = Object.entries(content ?? {});
      const ok =
        entries.length > 0 &&
        entries.every(([media, body]) =>
          media === 'application/json'
            ? body?.schema?.type === 'object' && !!body.schema.properties?.code && !!body.schema.properties?.data
            : body?.schema?.format === 'binary',
        );
      if (!ok) bad.push(`${r.method} ${routeUrl(r)}: ${JSON.stringify(op?.responses ?? null).slice(0, 200)}`);
    }
    expect(bad).toEqual([]);
    // and nothing in the document without one (routes outside the table included)
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op?.responses?.['200']?.content) bad.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("the console's types of rows the server builds from resource declarations match the served reply schemas", async () => {
    const routes = await allRoutes();
    const types = (x: any): string => [x?.type ?? 'any'].flat().sort().join('|');
    const bad: string[] = [];
    for (const { route: path, array, row } of CHECKED_ROWS) {
      const served = (routes.find((r) => r.method === 'GET' && r.path === path)?.reply as any)?.properties?.[array]?.items?.properties ?? {};
      const declared = row.properties as Record<string, unknown>;
      for (const k of new Set([...Object.keys(served), ...Object.keys(declared)])) {
        if (types(served[k]) !== types(declared[k])) bad.push(`${path} ${array}.${k}: served ${types(served[k])}, console ${types(declared[k])}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("docs/business-api.md's route reference is the business routes' own (npx tsx scripts/docs-cli.ts --write)", () => {
    const doc = readFileSync(BUSINESS_API_DOC, 'utf8');
    expect(withReference(doc, routeReference(businessRoutes)) === doc, `${BUSINESS_API_DOC} is out of date: run npx tsx scripts/docs-cli.ts --write`).toBe(true);
  });
});
