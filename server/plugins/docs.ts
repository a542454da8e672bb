import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** OpenAPI from the route schemas: UI at /api/docs, JSON at /api/docs/json. Register before routes. */
export async function registerDocs(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Backoffice Console API', version, description: 'Envelope { code, msg, data }; see docs/api.md.' },
      components: {
        securitySchemes: {
          adminToken: { type: 'apiKey', in: 'header', name: 'admin-token', description: 'plus cookies sid and sid_guard' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: false });
}
