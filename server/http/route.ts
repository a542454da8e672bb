import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../db/db.js';

/**
 * How every API route is declared. The app registers a list of these under `/api/admin/`
 * (or `/api/common/` when `base: 'common'`); it refuses to start when a route declares no
 * `access`. Registration handles, once for all routes: JSON Schema validation of query and
 * body (additional properties refused, 40001 naming each field), authentication, the access
 * check (40003), the envelope `{ code, msg, data }`, a transaction for every POST (the
 * handler's `db` is the transaction), and the audit rows written through `ctx.audit` in that
 * same transaction. The login and access checks run in an `onRequest` hook, before the body is
 * read or validated: an anonymous caller gets 20001 and a caller without the key 40003 whatever
 * it sent. Declare routes with `route({...})` and TypeBox schemas to get typed `ctx.query` /
 * `ctx.body` without casts.
 */
export type JsonSchema = Record<string, unknown>;

/**
 * - `public`: no login needed (login, config).
 * - `login`: any signed-in account.
 * - `{ permission }`: a flattened key `module.permission_key` (see src/contract/permission-manifest.ts);
 *   an array means any one of them. Super admins pass everything.
 * - `{ service }`: no console session at all: an `Authorization: Bearer bct_…` service token holding
 *   this scope (server/auth/service-tokens.ts; the ingestion API). Staff sessions never pass.
 */
export type Access = 'public' | 'login' | { permission: string | string[] } | { service: string };

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

export interface RouteContext<Q = Record<string, unknown>, B = Record<string, unknown>, D extends Queryable = Queryable> {
  /** the request's transaction on a POST; the app's handle on a GET or a `transaction: false` route */
  db: D;
  user: SessionUser | null;
  query: Q;
  body: B;
  req: FastifyRequest;
  reply: FastifyReply;
  /** Writes an audit row in the current transaction (actor, address and user agent filled in). */
  audit(entry: AuditEntry): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one list holds routes of every query and body type
export interface RouteDef<Q = any, B = any> {
  method: 'GET' | 'POST';
  /** relative to the base, no leading slash, e.g. `role/list` */
  path: string;
  base?: 'admin' | 'common' | 'ingest/v1';
  access: Access;
  summary?: string;
  tags?: string[];
  query?: JsonSchema;
  body?: JsonSchema;
  /**
   * Schema of `data` in a success reply (serialisation and the OpenAPI document); every route
   * declares one (tests/api/openapi.test.ts walks the route table). TypeBox: a `route()` handler
   * must then return its static type. A `raw` route's is documented only (its handler sends the
   * reply itself): `FileReply` for bytes, else the `data` of the envelope it sends.
   */
  reply: ReplySchema;
  /** for multipart uploads and streamed downloads; the handler then owns the reply */
  raw?: 'multipart' | 'stream';
  /**
   * `false`: a POST handler runs on the app's handle (`ctx.db` is the Db) instead of inside one
   * transaction, and opens short ones itself with `ctx.db.tx` — for work that must not hold a
   * connection, such as a password hash. Declare such routes with `route()` to get `ctx.db: Db`.
   */
  transaction?: false;
  /** a larger body limit in bytes than the app's BODY_LIMIT (ingestion batches) */
  bodyLimit?: number;
  /** a named request limit instead of the global one (server/plugins/rate-limit.ts) */
  rateLimit?: 'login';
  handler(ctx: RouteContext<Q, B>): Promise<unknown>;
}

/**
 * A reply schema: TypeBox (the handler's return is checked against its static type), or plain
 * JSON Schema on routes not moved yet (their handlers return `unknown`; the count of those only
 * goes down, tests/api/openapi.test.ts).
 */
export type ReplySchema = TSchema | JsonSchema;

/** What a handler returns for the reply schema `RS`: its static type when TypeBox, else unknown. */
export type ReplyOf<RS> = RS extends TSchema ? Static<RS> : unknown;

export const defineRoutes = (routes: RouteDef[]): RouteDef[] => routes;

/**
 * On a `transaction: false` route: runs `fn` in one short transaction with a context on it, so
 * `tx.db` is the transaction and `tx.audit` writes in it (the work before — a password hash —
 * held nothing).
 */
export function withTx<Q, B, T>(ctx: RouteContext<Q, B, Db>, fn: (tx: RouteContext<Q, B>) => Promise<T>): Promise<T> {
  return ctx.db.tx((q) => fn({ ...ctx, db: q }));
}

/** What a TypeBox schema validates to, as @fastify/type-provider-typebox resolves it for Fastify. */
export type Validated<S> = S extends TSchema ? (TypeBoxTypeProvider & { schema: S })['validator'] : Record<string, unknown>;

/**
 * A route whose `query` / `body` are TypeBox schemas: the handler's `ctx.query` and `ctx.body`
 * get the types those schemas validate (no interface to keep in step, no cast); with a TypeBox
 * `reply`, what the handler returns must be that reply's static type.
 */
export function route<
  QS extends TSchema | undefined = undefined,
  BS extends TSchema | undefined = undefined,
  T extends false | undefined = undefined,
  RS extends ReplySchema = ReplySchema,
  R extends RouteDef['raw'] = undefined,
>(
  def: Omit<RouteDef<Validated<QS>, Validated<BS>>, 'query' | 'body' | 'reply' | 'raw' | 'transaction' | 'handler'> & {
    query?: QS;
    body?: BS;
    reply: RS;
    raw?: R;
    transaction?: T;
    /** returns the reply's data (a `raw` handler sends the reply itself) */
    handler(ctx: RouteContext<Validated<QS>, Validated<BS>, T extends false ? Db : Queryable>): Promise<R extends undefined ? ReplyOf<RS> : unknown>;
  },
): RouteDef<Validated<QS>, Validated<BS>> {
  return def as RouteDef<Validated<QS>, Validated<BS>>;
}
