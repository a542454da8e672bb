import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db.js';
import { migrationFiles } from '../db/migrate.js';
import { StringEnum } from '../http/typebox.js';

/**
 * For load balancers and orchestrators, without a session:
 * - `GET /healthz`: the process answers (liveness);
 * - `GET /readyz`: the database answers, every migration is applied and the work engine runs
 *   (readiness); HTTP 503 with what is missing otherwise.
 * Not API routes (no envelope, not in the OpenAPI document), but their replies are declared too.
 */
const LiveReply = Type.Object({ status: Type.Literal('ok') });
const ReadyReply = Type.Object({
  status: StringEnum(['ready', 'not ready']),
  checks: Type.Object({ database: Type.Boolean(), migrations: Type.Boolean(), queue: Type.Boolean(), workers: Type.Boolean() }),
});

export function registerHealth(app: FastifyInstance, db: Db): void {
  const expected = migrationFiles().length;
  // typed by the reply schemas, as the API routes are (server/http/register.ts)
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get('/healthz', { config: { apiReply: true }, schema: { hide: true, response: { 200: LiveReply } } }, async () => ({ status: 'ok' as const }));
  api.get('/readyz', { config: { apiReply: true }, schema: { hide: true, response: { 200: ReadyReply, 503: ReadyReply } } }, async (_req, reply) => {
    const checks = { database: false, migrations: false, queue: app.jobs.running, workers: app.jobs.runsWorkers };
    try {
      const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      checks.database = true;
      checks.migrations = Number(r.rows[0]?.n ?? 0) >= expected;
    } catch {
      /* not reachable: reported below */
    }
    const ready = checks.database && checks.migrations && checks.queue;
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });
}
