import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/db.js';

/**
 * How every API route is declared. The app registers a list of these under `/api/admin/`
 * (or `/api/common/` when `base: 'common'`); it refuses to start when a route declares no
 * `access`. Registration handles, once for all routes: JSON Schema validation of query and
 * body (additional properties refused, 40001 naming each field), authentication, the access
 * check (40003), the envelope `{ code, msg, data }`, a transaction for every POST (the
 * handler's `db` is the transaction), and the audit rows written through `ctx.audit` in that
 * same transaction.
 */
export type JsonSchema = Record<string, unknown>;

/**
 * - `public`: no login needed (login, config).
 * - `login`: any signed-in account.
 * - `{ permission }`: a flattened key `module.permission_key` (see src/contract/permission-manifest.ts);
 *   an array means any one of them. Super admins pass everything.
 */
export type Access = 'public' | 'login' | { permission: string | string[] };

export interface SessionUser {
  id: number;
  email: string;
  name: string;
  isSuperAdmin: boolean;
  /** flattened `module.permission_key` set (shared by the requests of a kept session: read only) */
  keys: ReadonlySet<string>;
  sessionId: number;
}

export interface AuditEntry {
  action: string;
  resource: string;
  targetId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

export interface RouteContext<Q = Record<string, unknown>, B = Record<string, unknown>> {
  db: Queryable;
  user: SessionUser | null;
  query: Q;
  body: B;
  req: FastifyRequest;
  reply: FastifyReply;
  /** Writes an audit row in the current transaction (actor, address and user agent filled in). */
  audit(entry: AuditEntry): Promise<void>;
}

export interface RouteDef<Q = any, B = any> {
  method: 'GET' | 'POST';
  /** relative to the base, no leading slash, e.g. `role/list` */
  path: string;
  base?: 'admin' | 'common';
  access: Access;
  summary?: string;
  tags?: string[];
  query?: JsonSchema;
  body?: JsonSchema;
  /** schema of `data` in a success reply (used for serialisation and the OpenAPI document) */
  reply?: JsonSchema;
  /** for multipart uploads and streamed downloads; the handler then owns the reply */
  raw?: 'multipart' | 'stream';
  handler(ctx: RouteContext<Q, B>): Promise<unknown>;
}

export const defineRoutes = (routes: RouteDef[]): RouteDef[] => routes;
