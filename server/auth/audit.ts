import type { Queryable } from '../db/db.js';
import type { AuditEntry } from '../http/route.js';

/**
 * Keys whose values are secrets: passwords, tokens (`token`, `access_token`, `tokenHash` — not
 * counts of model tokens such as `max_tokens`, `prompt_tokens`, `judge_tokens`), secrets, keys.
 */
const SECRET = /pass(word|wd)?|token(?!s)|secret|guard|cookie|authorization|api[_-]?key/i;

/** Replaces the values of password / token / secret-like keys, recursively. */
export function scrub(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined || depth > 20) return value ?? null;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = SECRET.test(k) ? '[redacted]' : scrub(v, depth + 1);
    }
    return out;
  }
  return value;
}

export interface AuditActor {
  id: number | null;
  email: string;
  ip: string;
  userAgent: string;
}

const json = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(scrub(v)));

export async function writeAudit(q: Queryable, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await q.query(
    `INSERT INTO audit_logs (actor_id, actor_email, action, resource, target_id, before, after, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9)`,
    [
      actor.id,
      actor.email,
      entry.action,
      entry.resource,
      entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
      json(entry.before),
      json(entry.after),
      actor.ip,
      actor.userAgent.slice(0, 500),
    ],
  );
}
