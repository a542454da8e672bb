import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { Db } from '../db/db.js';
import { registerRoutes } from '../http/register.js';
import { allRoutes } from '../routes/index.js';
import { lazySerializers } from './serialization.js';
import { registerValidation } from './validation.js';

describe('reply serializers compiled on first use', () => {
  it("every route's reply schema compiles (the server compiles each on its first reply only)", async () => {
    const compiled = new Set<() => (data: unknown) => string>();
    const app = Fastify({ schemaController: lazySerializers(compiled) });
    app.decorate('backofficeConfig', loadConfig());
    registerValidation(app);
    registerRoutes(app, {} as Db, await allRoutes());
    await app.ready();
    expect(compiled.size).toBeGreaterThan(100);
    for (const compile of compiled) expect(typeof compile()).toBe('function');
    await app.close();
  });

  it('a lazily compiled serializer writes what the schema says and nothing more', async () => {
    const compiled = new Set<() => (data: unknown) => string>();
    const app = Fastify({ schemaController: lazySerializers(compiled) });
    app.get('/x', { schema: { response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } }, async () => ({ n: '7', secret: 'no' }));
    await app.ready();
    expect(compiled.size).toBeGreaterThan(0); // GET and its HEAD route
    const res = await app.inject({ method: 'GET', url: '/x' });
    expect(res.json()).toEqual({ n: 7 });
    await app.close();
  });
});
