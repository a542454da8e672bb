/**
 * Which servers answer a call, in order: the traffic split (configCenter/divertData), then the
 * model strategy (configCenter/modelStrategy) with its fallback server, then — with neither —
 * the first enabled server. A caller's own choice (`modelServerId`) skips all of it.
 */
import { createHash, randomInt } from 'node:crypto';
import type { Queryable } from '../../db/db.js';
import { invalid } from '../../http/errors.js';
import { firstEnabled, loadEnabled, loadServer, type LoadedServer } from './servers.js';

export interface Plan {
  servers: LoadedServer[];
  strategyId: number | null;
  divertId: number | null;
  temperature: number | null;
  maxTokens: number | null;
}

interface StrategyRow {
  id: number;
  model_server_id: number;
  fallback_server_id: number | null;
  temperature: number;
  max_tokens: number;
}

/** The bucket 0–99 of a session key (the same key always lands in the same bucket). */
export function bucketOf(sessionKey: string | undefined): number {
  if (!sessionKey) return randomInt(100);
  return createHash('sha256').update(sessionKey).digest().readUInt32BE(0) % 100;
}

interface DivertRow {
  id: number;
  percentage: number;
  model_strategy_id: number;
  shop_id: number | null;
}

/**
 * The split a bucket falls in. The shop's own splits replace the global ones; they take the
 * buckets in id order (the first 10 % takes buckets 0–9, the next 30 % takes 10–39, …); the
 * buckets past the sum fall through to the strategy.
 */
export function pickDivert(rows: DivertRow[], bucket: number): DivertRow | null {
  const own = rows.filter((r) => r.shop_id !== null);
  let from = 0;
  for (const r of own.length ? own : rows) {
    if (bucket < from + r.percentage) return r;
    from += r.percentage;
  }
  return null;
}

const STRATEGY_COLS = 'id, model_server_id, fallback_server_id, temperature::float8 AS temperature, max_tokens';

export async function resolvePlan(
  db: Queryable,
  req: { shopId?: number | null; channel?: string | null; sessionKey?: string; modelServerId?: number | null },
): Promise<Plan> {
  const none = { strategyId: null, divertId: null, temperature: null, maxTokens: null };
  if (req.modelServerId) {
    const s = await loadServer(db, req.modelServerId);
    if (!s) throw invalid([{ field: 'model_server_id', message: `${req.modelServerId} does not exist / 模型服务不存在` }]);
    if (!s.enabled) throw invalid([{ field: 'model_server_id', message: `"${s.name}" is disabled / 模型服务已停用` }]);
    return { servers: [s], ...none };
  }
  const shopId = req.shopId ?? null;
  const channel = req.channel ?? 'chat';
  let strategy: StrategyRow | null = null;
  let divertId: number | null = null;
  const diverts = await db.query<DivertRow>(
    `SELECT d.id, d.percentage, d.model_strategy_id, d.shop_id
       FROM config_divert d JOIN config_model_strategy s ON s.id = d.model_strategy_id AND s.enabled
      WHERE d.enabled AND d.percentage > 0 AND (d.shop_id IS NULL OR d.shop_id = $1) AND (d.channel IS NULL OR d.channel = $2)
      ORDER BY d.id`,
    [shopId, channel],
  );
  const hit = pickDivert(diverts.rows, bucketOf(req.sessionKey));
  if (hit) {
    const r = await db.query<StrategyRow>(`SELECT ${STRATEGY_COLS} FROM config_model_strategy WHERE id = $1`, [hit.model_strategy_id]);
    strategy = r.rows[0] ?? null;
    divertId = hit.id;
  }
  if (!strategy) {
    const r = await db.query<StrategyRow>(
      `SELECT ${STRATEGY_COLS} FROM config_model_strategy
        WHERE enabled AND (shop_id IS NULL OR shop_id = $1) AND (channel IS NULL OR channel = $2)
        ORDER BY (shop_id IS NULL), (channel IS NULL), id LIMIT 1`,
      [shopId, channel],
    );
    strategy = r.rows[0] ?? null;
  }
  if (!strategy) {
    const s = await firstEnabled(db);
    return { servers: s ? [s] : [], ...none };
  }
  const ids = [strategy.model_server_id, strategy.fallback_server_id].filter((x, i, a): x is number => x !== null && a.indexOf(x) === i);
  return {
    servers: await loadEnabled(db, ids),
    strategyId: strategy.id,
    divertId,
    temperature: strategy.temperature,
    maxTokens: strategy.max_tokens,
  };
}

/** The configCenter/fallback reply for a shop and channel (the shop's own first, then the global one). */
export async function fallbackReply(db: Queryable, shopId: number | null | undefined, channel: string | null | undefined): Promise<string | null> {
  const r = await db.query<{ reply: string }>(
    `SELECT reply FROM config_fallback WHERE enabled AND (shop_id IS NULL OR shop_id = $1) AND channel = $2
      ORDER BY (shop_id IS NULL), id LIMIT 1`,
    [shopId ?? null, channel ?? 'chat'],
  );
  return r.rows[0]?.reply ?? null;
}
