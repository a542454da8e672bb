import { Type, type Static } from '@sinclair/typebox';
import { route } from '../../http/route.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { NoQuery, Nullable } from '../../http/typebox.js';
import { F } from '../engine/fields.js';
import { mustFind, updateRow } from '../engine/routes.js';
import { Id, rowSchema } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { NOTICE_STATUS, SHOP_TYPES, ids } from '../enums.js';
import { K } from '../keys.js';
import { PUSH_KIND } from './push.js';
import { NK } from './keys.js';
import { notificationChannel } from './channel.js';
import { notificationSend, notificationSendAttempt } from './sends.js';
import { smtpRoutes } from './smtp.js';
import { pageReply } from '../../http/list.js';

/** per shop of a notice: its sends' states (a shop with several channels counts once) */
const shopStates = (having: string) =>
  `(SELECT count(*)::int FROM (SELECT 1 FROM notification_send s WHERE s.notification_id = t.id GROUP BY s.shop_id HAVING ${having}) x)`;

export const NEED_TARGET_TYPE = 'please check the store type / 请勾选店铺类型';

const targetTypeLabels = `(SELECT coalesce(json_agg(json_build_object('id', x, 'label', CASE x ${SHOP_TYPES.map((s) => `WHEN ${s.id} THEN '${s.label_en}'`).join(' ')} END) ORDER BY x), '[]'::json) FROM unnest(t.target_types) x)`;

/** Merchant notifications: pushed to every shop of the ticked shop types. */
export const notification: ResourceDef = {
  name: 'notification',
  table: 'notification',
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    title: F.str(200, { required: true }, 1),
    content: F.text(20000, { required: true }),
    status: { ...F.enumOf(ids(NOTICE_STATUS)), readOnly: true },
    jump_link: F.url(),
    target_types: {
      // not `required` / `minItems` in the schema: the check below gives the spec's message
      schema: { type: 'array', items: { type: 'integer', enum: ids(SHOP_TYPES) }, uniqueItems: true, maxItems: SHOP_TYPES.length },
    },
    target_type_list: {
      schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' } } } },
      virtual: true,
      select: targetTypeLabels,
    },
    push_quantity: { schema: { type: 'integer' }, readOnly: true, sort: true },
    push_read_count: {
      schema: { type: 'integer' },
      readOnly: true,
      select: '(SELECT count(*)::int FROM notification_delivery d WHERE d.notification_id = t.id AND d.read_at IS NOT NULL)',
    },
    // delivery through the shops' channels (server/notify): shops reached, failed, still on the way
    push_delivered_count: { schema: { type: 'integer' }, virtual: true, select: shopStates(`bool_or(s.state = 'delivered')`) },
    push_failed_count: { schema: { type: 'integer' }, virtual: true, select: shopStates(`bool_and(s.state = 'failed')`) },
    push_pending_count: {
      schema: { type: 'integer' },
      virtual: true,
      select: shopStates(`bool_or(s.state IN ('pending', 'sending')) AND NOT bool_or(s.state = 'delivered')`),
    },
    push_no_channel_count: {
      schema: { type: 'integer' },
      virtual: true,
      select:
        '(SELECT count(*)::int FROM notification_delivery d WHERE d.notification_id = t.id AND NOT EXISTS (SELECT 1 FROM notification_send s WHERE s.notification_id = d.notification_id AND s.shop_id = d.shop_id))',
    },
    /** some of its sends went to the built-in sandbox receiver (demo data) */
    push_sandbox: { schema: { type: 'boolean' }, virtual: true, select: "EXISTS (SELECT 1 FROM notification_send s WHERE s.notification_id = t.id AND s.channel = 'sandbox')" },
    /** still pushing, or a send on its way (the pages refresh while it is) */
    push_active: {
      schema: { type: 'boolean' },
      virtual: true,
      select: "(t.status = 2 OR EXISTS (SELECT 1 FROM notification_send s WHERE s.notification_id = t.id AND s.state IN ('pending', 'sending')))",
    },
    pushed_at: F.dateTime({ nullable: true, readOnly: true, sort: true }),
    // the push job (push.ts): its state and progress (shops reached / to reach)
    push_job_id: { schema: { type: 'integer' }, nullable: true, readOnly: true },
    push_job_state: { schema: { type: 'string' }, nullable: true, virtual: true, select: '(SELECT j.state FROM work_job j WHERE j.id = t.push_job_id)' },
    push_progress_done: { schema: { type: 'integer' }, nullable: true, virtual: true, select: '(SELECT j.progress_done FROM work_job j WHERE j.id = t.push_job_id)' },
    push_progress_total: { schema: { type: 'integer' }, nullable: true, virtual: true, select: '(SELECT j.progress_total FROM work_job j WHERE j.id = t.push_job_id)' },
    push_progress: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: "(SELECT j.progress_done || ' / ' || j.progress_total FROM work_job j WHERE j.id = t.push_job_id)",
    },
    push_error: { schema: { type: 'string' }, nullable: true, virtual: true, select: "(SELECT NULLIF(j.last_error, '') FROM work_job j WHERE j.id = t.push_job_id AND j.state = 'failed')" },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: K.notice },
    detail: { permission: [K.notice, NK.noticeDetail] },
    create: { permission: K.noticeAdd, path: 'add' },
    update: { permission: K.noticeUpdate },
    delete: { permission: K.noticeDelete },
  },
  validate: async (v, _ctx, mode, before) => {
    if ((mode === 'create' || 'target_types' in v) && (!Array.isArray(v.target_types) || v.target_types.length === 0)) {
      throw invalid([{ field: 'target_types', message: NEED_TARGET_TYPE }]);
    }
    if (before && before.status !== 0) throw conflict('a pushed notification cannot be edited / 已推送的通知不能修改');
  },
};

const pushRoute = route({
  method: 'POST',
  path: 'notification/push',
  access: { permission: K.noticePush },
  summary:
    'Push a notification to every active shop of its target types: a `notification.push` job writes one delivery per shop (status 2 pushing → 1 pushed) and one send per channel of the shop, which `notification.deliver` jobs send (on demo data, shops without a channel get it through the sandbox receiver); `force` re-pushes a pushed one (failed sends are tried again)',
  get reply() {
    return rowSchema(notification);
  },
  body: Type.Object({ id: Id, force: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false }),
  handler: async (ctx) => {
    const { id, force } = ctx.body;
    const before = await mustFind(notification, ctx, id);
    const live = await ctx.db.query(`SELECT 1 FROM work_job WHERE id = $1 AND state IN ('queued', 'running')`, [before.push_job_id ?? 0]);
    if (live.rows.length) throw conflict('this notification is being pushed / 该通知正在推送中');
    if (before.status === 1 && !force) throw conflict('this notification was already pushed; send force: true to push it again / 该通知已推送，再次推送请确认');
    const types = before.target_types as number[];
    if (!types.length) throw invalid([{ field: 'target_types', message: NEED_TARGET_TYPE }]);
    // the job commits with the status change (or neither does)
    // demo data: shops without a channel of their own get it through the sandbox receiver
    const sandbox = ctx.req.server.backofficeConfig.seedDemo;
    const job = await ctx.req.server.jobs.enqueue(ctx.db, PUSH_KIND, { notificationId: id, sandbox }, {
      createdBy: ctx.user?.id ?? null,
      ref: { type: 'notification', id },
      title: `Push "${String(before.title).slice(0, 60)}" / 推送通知`,
    });
    await ctx.db.query(`UPDATE notification SET status = 2, push_job_id = $2, updated_at = now() WHERE id = $1`, [id, job.id]);
    return updateRow(notification, ctx, id, {}, before, 'push');
  },
});

const deliveryRow = Type.Object({
  shop_id: Type.Integer(),
  shop_name: Nullable(Type.String()),
  delivered_at: Type.String({ format: 'date-time' }),
  read_at: Nullable(Type.String({ format: 'date-time' })),
  read_token: Type.String(),
});

/** The deliveries of a notification (who got it, who read it), paged. */
const DELIVERY_PAGE = { page: 1, page_size: 10 };

const deliveriesRoute = route({
  method: 'GET',
  path: 'notification/delivery/list',
  access: { permission: K.notice },
  summary: 'The shops a notification was delivered to, with read times and the read token the merchant side uses',
  query: Type.Object(
    {
      notification_id: Id,
      read: Type.Optional(Type.Boolean()),
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: DELIVERY_PAGE.page })),
      page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: DELIVERY_PAGE.page_size })),
    },
    { additionalProperties: false },
  ),
  reply: pageReply(deliveryRow),
  handler: async (ctx) => {
    // validation fills in the defaults; TypeBox still types the two as optional
    const q = { ...DELIVERY_PAGE, ...ctx.query };
    const where = `d.notification_id = $1${q.read === undefined ? '' : q.read ? ' AND d.read_at IS NOT NULL' : ' AND d.read_at IS NULL'}`;
    const total = (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notification_delivery d WHERE ${where}`, [q.notification_id])).rows[0].n;
    const list = await ctx.db.query<Static<typeof deliveryRow>>(
      `SELECT d.shop_id, s.name AS shop_name, d.delivered_at, d.read_at, d.read_token
         FROM notification_delivery d LEFT JOIN shop s ON s.id = d.shop_id
        WHERE ${where} ORDER BY d.shop_id LIMIT $2 OFFSET $3`,
      [q.notification_id, q.page_size, (q.page - 1) * q.page_size],
    );
    return { list: list.rows, total, page: q.page, page_size: q.page_size };
  },
});

/**
 * The merchant side (a shop's console or plugin) marks a delivered notification read with the
 * delivery's read token (a 256-bit capability handed over with the delivery; no console session).
 * The first read sets `read_at` and the notification's read count; later reads change nothing.
 */
export const merchantReadRoute = route({
  method: 'POST',
  base: 'common',
  path: 'merchant/notification/read',
  access: 'public',
  tags: ['merchant'],
  summary: 'Merchant side: mark a delivered notification read (by its delivery read token)',
  body: Type.Object({ token: Type.String({ minLength: 32, maxLength: 64, pattern: '^[0-9a-f]+$' }) }, { additionalProperties: false }),
  reply: Type.Object({
    notification_id: Type.Integer(),
    shop_id: Type.Integer(),
    read_at: Type.String({ format: 'date-time' }),
    first_read: Type.Boolean(),
    push_read_count: Type.Integer(),
  }),
  handler: async (ctx) => {
    const { token } = ctx.body;
    const d = (
      await ctx.db.query<{ notification_id: number; shop_id: number; read_at: Date | null }>(
        `SELECT notification_id, shop_id, read_at FROM notification_delivery WHERE read_token = $1 FOR UPDATE`,
        [token],
      )
    ).rows[0];
    if (!d) throw notFound('notification delivery');
    let readAt = d.read_at;
    if (!readAt) {
      readAt = (
        await ctx.db.query<{ read_at: Date }>(
          `UPDATE notification_delivery SET read_at = now() WHERE notification_id = $1 AND shop_id = $2 RETURNING read_at`,
          [d.notification_id, d.shop_id],
        )
      ).rows[0].read_at;
    }
    const n = (
      await ctx.db.query<{ push_read_count: number }>(
        `UPDATE notification SET push_read_count = (SELECT count(*) FROM notification_delivery WHERE notification_id = $1 AND read_at IS NOT NULL)
          WHERE id = $1 RETURNING push_read_count`,
        [d.notification_id],
      )
    ).rows[0];
    return { notification_id: d.notification_id, shop_id: d.shop_id, read_at: readAt.toISOString(), first_read: !d.read_at, push_read_count: n?.push_read_count ?? 0 };
  },
});

const targetTypesRoute = route({
  method: 'GET',
  path: 'notification/target-types',
  access: { permission: K.notice },
  summary: 'Shop types a notification can target',
  query: NoQuery,
  reply: Type.Array(Type.Object({ id: Type.Integer(), label: Type.String(), label_en: Type.String() })),
  handler: async () => SHOP_TYPES,
});

notification.actions = [targetTypesRoute, pushRoute, deliveriesRoute, ...smtpRoutes];

/** the resources of notice delivery (server/resources/index.ts lists them after `notification`) */
export const NOTIFY_RESOURCES: ResourceDef[] = [notificationChannel, notificationSend, notificationSendAttempt];
// merchantReadRoute is public (no console session): registered by server/routes/merchant.ts
