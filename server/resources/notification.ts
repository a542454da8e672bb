import type { RouteContext, RouteDef } from '../http/route.js';
import { conflict, invalid } from '../http/errors.js';
import { F } from './engine/fields.js';
import { mustFind, updateRow } from './engine/routes.js';
import { ID, rowSchema } from './engine/schemas.js';
import type { ResourceDef } from './engine/types.js';
import { NOTICE_STATUS, SHOP_TYPES, ids } from './enums.js';
import { K } from './keys.js';

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
    pushed_at: F.dateTime({ nullable: true, readOnly: true, sort: true }),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: K.notice },
    detail: { permission: K.notice },
    create: { permission: K.noticeAdd, path: 'add' },
    update: { permission: K.noticeUpdate },
    delete: { permission: K.noticeDelete },
  },
  validate: async (v, _ctx, mode, before) => {
    if ((mode === 'create' || 'target_types' in v) && (!Array.isArray(v.target_types) || v.target_types.length === 0)) {
      throw invalid([{ field: 'target_types', message: NEED_TARGET_TYPE }]);
    }
    if (before && before.status === 1) throw conflict('a pushed notification cannot be edited');
  },
};

const pushRoute: RouteDef = {
  method: 'POST',
  path: 'notification/push',
  access: { permission: K.noticePush },
  summary: 'Push a notification to every active shop of its target types; `force` re-pushes a pushed one',
  get reply() {
    return rowSchema(notification);
  },
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: { id: ID, force: { type: 'boolean', default: false } },
  },
  handler: async (ctx) => {
    const { id, force } = ctx.body as { id: number; force?: boolean };
    const before = await mustFind(notification, ctx as RouteContext, id);
    if (before.status === 1 && !force) throw conflict('this notification was already pushed; send force: true to push it again');
    const types = before.target_types as number[];
    if (!types.length) throw invalid([{ field: 'target_types', message: NEED_TARGET_TYPE }]);
    // one delivery per reached shop; a re-push reaches new shops and keeps read marks
    await ctx.db.query(
      `INSERT INTO notification_delivery (notification_id, shop_id)
       SELECT $1, s.id FROM shop s WHERE s.active AND s.type = ANY($2::smallint[])
       ON CONFLICT (notification_id, shop_id) DO NOTHING`,
      [id, types],
    );
    await ctx.db.query(
      `UPDATE notification SET status = 1, pushed_at = now(), updated_at = now(),
              push_quantity = (SELECT count(*) FROM notification_delivery WHERE notification_id = $1),
              push_read_count = (SELECT count(*) FROM notification_delivery WHERE notification_id = $1 AND read_at IS NOT NULL)
        WHERE id = $1`,
      [id],
    );
    return updateRow(notification, ctx as RouteContext, id, {}, before, 'push');
  },
};

const targetTypesRoute: RouteDef = {
  method: 'GET',
  path: 'notification/target-types',
  access: { permission: K.notice },
  summary: 'Shop types a notification can target',
  query: { type: 'object', additionalProperties: false, properties: {} },
  reply: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' }, label_en: { type: 'string' } } } },
  handler: async () => SHOP_TYPES,
};

notification.actions = [targetTypesRoute, pushRoute];
