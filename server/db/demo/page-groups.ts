import type { Db } from '../db.js';
import { DEMO_NOW } from './random.js';

/**
 * Demo rows of the sync log (docs/modules/page-groups.md): finished shop.sync jobs as the work
 * engine leaves them — three that pulled messages and orders, one that failed because its shop had
 * not authorized the platform. Idempotent (does nothing when any shop.sync job exists).
 */
export async function seedPageGroupsDemo(db: Db): Promise<void> {
  const any = await db.query(`SELECT 1 FROM work_job WHERE kind = 'shop.sync' LIMIT 1`);
  if (any.rows.length) return;
  const ok = await db.query<{ id: number; name: string }>(`SELECT id, name FROM shop WHERE authorize_status = 1 ORDER BY id LIMIT 3`);
  const bad = await db.query<{ id: number; name: string }>(`SELECT id, name FROM shop WHERE authorize_status <> 1 ORDER BY id LIMIT 1`);
  // the last two days before the demo's reference time (DEMO_NOW, server/db/demo/random.ts)
  const base = DEMO_NOW - 2 * 86_400_000;
  const rows: unknown[][] = [];
  ok.rows.forEach((s, i) => {
    const start = new Date(base + i * 3_600_000);
    const result = { shop_id: s.id, shop_name: s.name, scope: 'all', days: 7, chat_sessions: 4 + i, chat_messages: 31 + 7 * i, mail_sessions: 2 + i, orders: 12 + 5 * i };
    rows.push([s.id, JSON.stringify({ shopId: s.id, scope: 'all', days: 7 }), 'done', JSON.stringify(result), 2, 2, '', start, new Date(start.getTime() + 1800 + 400 * i)]);
  });
  for (const s of bad.rows) {
    const start = new Date(base + 4 * 3_600_000);
    rows.push([s.id, JSON.stringify({ shopId: s.id, scope: 'messages', days: 30 }), 'failed', null, 0, 1,
      'the shop has not authorized the platform: nothing can be pulled / 店铺尚未授权平台，无法拉取数据', start, new Date(start.getTime() + 120)]);
  }
  for (const [shopId, data, state, result, done, total, error, start, end] of rows) {
    await db.query(
      `INSERT INTO work_job (kind, title, ref_type, ref_id, state, data, result, progress_done, progress_total, attempts, max_attempts, last_error,
                             created_at, started_at, finished_at, updated_at)
       VALUES ('shop.sync', $1, 'shop', $2, $3, $4::jsonb, $5::jsonb, $6, $7, 1, 2, $8, $9, $9, $10, $10)`,
      [`Sync shop ${String(shopId)} / 同步店铺 ${String(shopId)}`, shopId, state, data, result, done, total, error, start, end],
    );
  }
}
