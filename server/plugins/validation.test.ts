import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../routes/index.js';
import { registerValidation, validators } from './validation.js';

describe('route validators', () => {
  it("every route's query and body schema compiles (the server compiles them on first use only)", async () => {
    const { body, query } = validators();
    const routes = await allRoutes();
    expect(routes.length).toBeGreaterThan(100);
    for (const r of routes) {
      if (r.query) expect(() => query.compile(r.query as object), `${r.method} ${r.path} query`).not.toThrow();
      if (r.body) expect(() => body.compile(r.body as object), `${r.method} ${r.path} body`).not.toThrow();
    }
  });

  it('a validator compiled on first use refuses with its errors where Fastify reads them', async () => {
    const app = Fastify();
    registerValidation(app);
    app.post('/x', { schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } }, async (req) => req.body);
    const bad = await app.inject({ method: 'POST', url: '/x', payload: { n: 'no' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('body/n must be integer');
    const good = await app.inject({ method: 'POST', url: '/x', payload: { n: 2 } });
    expect(good.json()).toEqual({ n: 2 });
    await app.close();
  });
});
