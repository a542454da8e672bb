import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db.js';
import { migrationFiles } from '../db/migrate.js';

/**
 * For load balancers and orchestrators, without a session:
 * - `GET /healthz`: the process answers (liveness);
 * - `GET /readyz`: the database answers, every migration is applied and the work engine runs
 *   (readiness); HTTP 503 with what is missing otherwise.
 */
export function registerHealth(app: FastifyInstance, db: Db): void {
  const expected = migrationFiles().length;
  app.get('/healthz', { config: { apiReply: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { apiReply: true }, schema: { hide: true } }, async (_req, reply) => {
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
