/**
 * The retrieval settings of a knowledge base (decide.ts): a shop's knowledge has its own score
 * threshold and top-k in `knowledge_setting` (migration 0033), an assistant may override either
 * (`chat_assistant.score_threshold`, `top_k`), and a request (hit testing) may try others.
 * Unset: DEFAULT_RETRIEVAL.
 */
import type { Queryable } from '../../db/db.js';
import { DEFAULT_RETRIEVAL, TOP_K_MAX, type RetrievalSettings } from './decide.js';

export interface SettingsQuery {
  shopId?: number | null;
  assistantId?: number | null;
  /** values to try (hit testing): they win over the stored ones */
  override?: { threshold?: number | null; topK?: number | null };
}

const clampT = (x: number) => Math.min(Math.max(x, 0), 1);
const clampK = (x: number) => Math.min(Math.max(Math.round(x), 1), TOP_K_MAX);

/** The shop's stored settings (null: none stored). */
export async function shopSettings(db: Queryable, shopId: number): Promise<{ threshold: number; topK: number } | null> {
  const r = await db.query<{ t: number; k: number }>(`SELECT score_threshold::float8 AS t, top_k AS k FROM knowledge_setting WHERE shop_id = $1`, [shopId]);
  const row = r.rows[0];
  return row ? { threshold: Number(row.t), topK: Number(row.k) } : null;
}

/** The settings in force: request → assistant → shop → default, each value on its own. */
export async function retrievalSettings(db: Queryable, q: SettingsQuery): Promise<RetrievalSettings> {
  let s: RetrievalSettings = { ...DEFAULT_RETRIEVAL };
  let shopId = q.shopId ?? null;
  let assistant: { t: number | null; k: number | null } | null = null;
  if (q.assistantId) {
    const a = (await db.query<{ t: number | null; k: number | null; shop_id: number | null }>(
      `SELECT score_threshold::float8 AS t, top_k AS k, shop_id FROM chat_assistant WHERE id = $1`,
      [q.assistantId],
    )).rows[0];
    if (a) {
      assistant = a;
      shopId ??= a.shop_id;
    }
  }
  if (shopId) {
    const shop = await shopSettings(db, shopId);
    if (shop) s = { ...shop, source: 'shop' };
  }
  if (assistant && (assistant.t != null || assistant.k != null)) {
    s = { threshold: assistant.t != null ? Number(assistant.t) : s.threshold, topK: assistant.k != null ? Number(assistant.k) : s.topK, source: 'assistant' };
  }
  const o = q.override;
  if (o && (o.threshold != null || o.topK != null)) {
    s = { threshold: o.threshold != null ? o.threshold : s.threshold, topK: o.topK != null ? o.topK : s.topK, source: 'request' };
  }
  return { ...s, threshold: clampT(s.threshold), topK: clampK(s.topK) };
}

/** Stores a shop's settings (both values; null removes the row: the defaults apply again). */
export async function saveShopSettings(db: Queryable, shopId: number, v: { threshold: number; topK: number } | null, userId: number | null): Promise<void> {
  if (!v) {
    await db.query(`DELETE FROM knowledge_setting WHERE shop_id = $1`, [shopId]);
    return;
  }
  await db.query(
    `INSERT INTO knowledge_setting (shop_id, score_threshold, top_k, updated_by, updated_at) VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (shop_id) DO UPDATE SET score_threshold = EXCLUDED.score_threshold, top_k = EXCLUDED.top_k, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [shopId, clampT(v.threshold), clampK(v.topK), userId],
  );
}
