import { Type, type Static } from '@sinclair/typebox';
import { Keys } from '../auth/guards.js';
import { pageFields, pageReply, paged } from '../http/list.js';
import { defineRoutes, route } from '../http/route.js';
import { Nullable } from '../http/typebox.js';

const Row = Type.Object({
  id: Type.Integer(),
  actor_id: Nullable(Type.Integer()),
  actor_email: Type.String(),
  action: Type.String(),
  resource: Type.String(),
  target_id: Nullable(Type.String()),
  before: Type.Unknown(),
  after: Type.Unknown(),
  ip: Type.String(),
  user_agent: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});
const filters = {
  actor: Type.Optional(Type.String({ maxLength: 200, description: 'account id or email' })),
  action: Type.Optional(Type.String({ maxLength: 64 })),
  resource: Type.Optional(Type.String({ maxLength: 64 })),
  target_id: Type.Optional(Type.String({ maxLength: 64 })),
  start_time: Type.Optional(Type.String({ format: 'date-time' })),
  end_time: Type.Optional(Type.String({ format: 'date-time' })),
};
const filterQuery = Type.Object(filters);
type Filters = Static<typeof filterQuery>;

const SELECT = 'id, actor_id, actor_email, action, resource, target_id, before, after, ip, user_agent, created_at';

function where(f: Filters): { sql: string; params: unknown[] } {
  const actor = f.actor?.trim() || null;
  const actorId = actor && /^\d+$/.test(actor) ? Number(actor) : null;
  return {
    sql: `FROM audit_logs WHERE ($1::int IS NULL OR actor_id = $1::int)
      AND ($2::text IS NULL OR actor_email = lower($2::text))
      AND ($3::text IS NULL OR action = $3::text) AND ($4::text IS NULL OR resource = $4::text)
      AND ($5::text IS NULL OR target_id = $5::text)
      AND ($6::timestamptz IS NULL OR created_at >= $6::timestamptz) AND ($7::timestamptz IS NULL OR created_at <= $7::timestamptz)`,
    params: [actorId, actorId === null ? actor : null, f.action || null, f.resource || null, f.target_id || null, f.start_time || null, f.end_time || null],
  };
}

export const routes = defineRoutes([
  route({
    method: 'GET',
    path: 'audit-log/list',
    access: { permission: Keys.auditLogs },
    summary: 'Audit rows, newest first, paged; filter by actor (id or email), action, resource, target, time range',
    query: Type.Object({ ...pageFields, ...filters }),
    reply: pageReply(Row),
    handler(ctx) {
      const w = where(ctx.query);
      return paged<Static<typeof Row>>(ctx.db, { select: SELECT, fromWhere: w.sql, orderBy: 'created_at DESC, id DESC', params: w.params }, ctx.query);
    },
  }),
  route({
    method: 'GET',
    path: 'audit-log/all',
    access: { permission: Keys.auditLogs },
    summary: 'Audit rows matching the filters, newest first, at most 1000 (for export)',
    query: filterQuery,
    reply: Type.Array(Row),
    async handler(ctx) {
      const w = where(ctx.query);
      const r = await ctx.db.query<Static<typeof Row>>(`SELECT ${SELECT} ${w.sql} ORDER BY created_at DESC, id DESC LIMIT 1000`, w.params);
      return r.rows;
    },
  }),
]);
