/**
 * Service tokens (issue 14): the credential of the customer-service platform on the ingestion
 * API (`/api/ingest/v1/…`, docs/api.md "Ingestion API"). A token is `bct_` + 32 random bytes
 * (base64url), shown once when it is created and stored only as its SHA-256 (a 256-bit random
 * value needs no slow hash: there is nothing to guess). It carries scopes, one per kind of
 * record it may push, and optionally the shops it may push to (issue 25); it is revoked, never
 * edited.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/db.js';
import { sha256 } from './tokens.js';

export const SERVICE_TOKEN_PREFIX = 'bct_';

/** What a token may push: one scope per ingestion route. */
export const INGEST_SCOPES = ['sessions', 'mails', 'orders', 'feedback', 'tickets', 'call_logs'] as const;
export type IngestScope = (typeof INGEST_SCOPES)[number];

/** `bct_` + 43 base64url characters (256 bits). */
export const newServiceToken = (): string => SERVICE_TOKEN_PREFIX + randomBytes(32).toString('base64url');

/** the part shown in lists (never enough to use) */
export const tokenHint = (token: string): string => token.slice(0, 8);

const SHAPE = /^bct_[A-Za-z0-9_-]{43}$/;

export interface ServiceCaller {
  id: number;
  name: string;
  scopes: string[];
  /** the shops it may write to; null: every shop */
  shopIds: number[] | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the service token a bearer-authenticated route was called with (null elsewhere) */
    serviceToken: ServiceCaller | null;
  }
}

/** The token of an `Authorization: Bearer bct_…` header, or null (any other scheme or shape). */
export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer +(\S+)\s*$/i.exec(h);
  return m && SHAPE.test(m[1]) ? m[1] : null;
}

/**
 * The live (not revoked) token of the request's bearer header, or null. Its last use is written
 * at most once a minute, not per batch.
 */
export async function authenticateService(db: Queryable, req: FastifyRequest): Promise<ServiceCaller | null> {
  const token = bearerToken(req);
  if (!token) return null;
  const r = await db.query<Omit<ServiceCaller, 'shopIds'> & { shop_ids: number[] | null; stale: boolean }>(
    `SELECT id, name, scopes, shop_ids, (last_used_at IS NULL OR last_used_at < now() - interval '1 minute') AS stale
       FROM service_token WHERE token_hash = $1 AND revoked_at IS NULL`,
    [sha256(token)],
  );
  const row = r.rows[0];
  if (!row) return null;
  if (row.stale) await db.query('UPDATE service_token SET last_used_at = now() WHERE id = $1', [row.id]);
  return { id: row.id, name: row.name, scopes: row.scopes, shopIds: row.shop_ids };
}

/** How a token appears as the actor of an audit row (it is no account). */
export const serviceActorEmail = (t: { id: number; name: string }): string => `service-token:${t.id}:${t.name}`.slice(0, 200);
