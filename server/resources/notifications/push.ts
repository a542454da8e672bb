/**
 * `notification.push`: the fan-out of a pushed notification. One delivery row per active shop
 * of the notification's target types (each with its own read token for the merchant side),
 * written in batches with progress (shops reached / shops to reach). A re-push reaches new shops
 * and keeps earlier deliveries and their read marks (ON CONFLICT DO NOTHING), so a job that is
 * delivered again after a crash simply goes over the shops again. Only the job named in
 * `notification.push_job_id` writes the notification's status and counts.
 */
import type { JobKind } from '../../jobs/types.js';
import { addSends } from './sends.js';
import { ensureDeliverJob } from '../../notify/sends.js';

export const PUSH_KIND = 'notification.push';
const BATCH = 500;


/**
 * `sandbox`: the server runs on demo data, so a shop without a channel of its own gets the notice
 * through the built-in sandbox receiver (server/notify/sandbox.ts). Each batch also writes the
 * sends of its deliveries (one per enabled channel of the shop) and makes sure a
 * `notification.deliver` job is on its way.
 */
export const pushKind: JobKind<{ notificationId: number; sandbox?: boolean }> = {
  kind: PUSH_KIND,
  title: (d) => `Push notification ${d.notificationId} / 推送通知 ${d.notificationId}`,
  maxAttempts: 3,
  async run(ctx) {
    const id = ctx.job.data.notificationId;
    const n = (
      await ctx.db.query<{ target_types: number[] }>(`SELECT target_types FROM notification WHERE id = $1 AND push_job_id = $2`, [id, ctx.job.id])
    ).rows[0];
    if (!n) return { skipped: true };
    const types = n.target_types;
    const total = (
      await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM shop WHERE active AND type = ANY($1::smallint[])`, [types])
    ).rows[0].n;
    await ctx.progress(0, total);
    let after = 0;
    let done = 0;
    for (;;) {
      const shops = (
        await ctx.db.query<{ id: number }>(
          `SELECT id FROM shop WHERE active AND type = ANY($1::smallint[]) AND id > $2 ORDER BY id LIMIT ${BATCH}`,
          [types, after],
        )
      ).rows.map((r) => Number(r.id));
      if (!shops.length) break;
      await ctx.db.tx(async (q) => {
        await q.query(
          // read_token: its column default, a 256-bit random value (migration 0013)
          `INSERT INTO notification_delivery (notification_id, shop_id)
           SELECT $1, s FROM unnest($2::int[]) s
           ON CONFLICT (notification_id, shop_id) DO NOTHING`,
          [id, shops],
        );
        if (await addSends(q, id, shops, !!ctx.job.data.sandbox)) await ensureDeliverJob(q, ctx.enqueue, id, ctx.job.createdBy);
        await q.query(
          `UPDATE notification SET push_quantity = (SELECT count(*) FROM notification_delivery WHERE notification_id = $1)
            WHERE id = $1 AND push_job_id = $2`,
          [id, ctx.job.id],
        );
      });
      after = shops[shops.length - 1];
      done += shops.length;
      await ctx.progress(done, total);
    }
    const r = await ctx.db.query<{ push_quantity: number; push_read_count: number }>(
      `UPDATE notification SET status = 1, pushed_at = now(), updated_at = now(),
              push_quantity = (SELECT count(*) FROM notification_delivery WHERE notification_id = $1),
              push_read_count = (SELECT count(*) FROM notification_delivery WHERE notification_id = $1 AND read_at IS NOT NULL)
        WHERE id = $1 AND push_job_id = $2 RETURNING push_quantity, push_read_count`,
      [id, ctx.job.id],
    );
    return { reached: done, deliveries: r.rows[0]?.push_quantity ?? null, read: r.rows[0]?.push_read_count ?? null };
  },
};
