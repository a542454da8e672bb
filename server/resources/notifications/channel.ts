/**
 * A shop's delivery channels for merchant notices (docs/integrations.md "Notifications"): a
 * signed webhook (address + secret) or an e-mail address (sent through the console's SMTP
 * server, smtp.ts). Channels belong to a shop because a notice is delivered per
 * shop (notification_delivery); a merchant with several shops sets each one up.
 *
 * The webhook secret is write-only: stored encrypted (server/ai/secrets.ts), shown as
 * `secret_masked`, never returned, never in an audit row or a log line.
 */
import { Type } from '@sinclair/typebox';
import { encryptSecret, maskSecret } from '../../ai/secrets.js';
import { classifyAddress } from '../../http/addresses.js';
import { urlProblem } from '../../http/outbound.js';
import { route } from '../../http/route.js';
import { invalid } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { insertRow, mustFind, updateRow } from '../engine/routes.js';
import { createBodySchema, rowSchema, updateBodySchema, type Fields } from '../engine/schemas.js';
import type { ResourceDef, Row } from '../engine/types.js';
import type { Queryable } from '../../db/db.js';
import { NK } from './keys.js';

export const channelKinds = ['webhook', 'email'] as const;
const EMAIL = '^([^@\\s]+@[^@\\s]+\\.[^@\\s]+)?$';

export const notificationChannel: ResourceDef = {
  name: 'notification/channel',
  auditName: 'notification_channel',
  table: 'notification_channel',
  keywordIds: ['id', 'shop_id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: F.shopId({ createOnly: true, sort: true }),
    shop_name: F.shopName(),
    kind: F.enumOf(channelKinds, { required: true, createOnly: true }),
    name: F.str(100),
    enabled: F.bool(),
    url: F.url(),
    /** `whs…abcd` (the secret itself is never read back) */
    secret_masked: { schema: { type: 'string' }, column: 'secret_mask', serverSet: true },
    email_to: { schema: { type: 'string', maxLength: 200, pattern: EMAIL } },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: {
    list: { permission: NK.channel },
    detail: { permission: NK.channel },
    delete: { permission: NK.channelDelete },
  },
};

/** 16–200 characters without spaces; '' (a form's untouched field) means none given */
const SECRET = { type: 'string', maxLength: 200, pattern: '^(\\S{16,})?$' };
const createBody = (() => {
  const s = createBodySchema(notificationChannel);
  return Type.Unsafe<Fields & { secret?: string }>({ ...s, properties: { ...s.properties, secret: SECRET } });
})();
const updateBody = (() => {
  const s = updateBodySchema(notificationChannel);
  // the form sends the shop and the kind back as it shows them: accepted when unchanged
  const fixed = { shop_id: notificationChannel.fields.shop_id.schema, kind: notificationChannel.fields.kind.schema };
  return Type.Unsafe<Fields & { id: number; secret?: string; shop_id?: number; kind?: string }>({ ...s, properties: { ...s.properties, ...fixed, secret: SECRET } });
})();

const NEED_URL = 'a webhook needs its address / Webhook 需要填写地址';
const NEED_SECRET = 'a webhook needs a signing secret (16 characters or more) / Webhook 需要签名密钥（至少 16 个字符）';
const NEED_EMAIL = 'an e-mail channel needs the address to send to / 邮件渠道需要填写收件地址';

/** The checks of a channel as it will be (the stored row with the body's changes over it). */
async function check(db: Queryable, v: Row, hasSecret: boolean): Promise<void> {
  if (v.shop_id !== undefined) {
    const shop = await db.query(`SELECT 1 FROM shop WHERE id = $1`, [v.shop_id]);
    if (!shop.rows.length) throw invalid([{ field: 'shop_id', message: 'no such shop / 店铺不存在' }]);
  }
  if (v.kind === 'webhook') {
    const url = String(v.url ?? '');
    if (!url) throw invalid([{ field: 'url', message: NEED_URL }]);
    const problem = urlProblem(url);
    if (problem) throw invalid([{ field: 'url', message: problem }]);
    const c = classifyAddress(new URL(url).hostname.replace(/^\[|\]$/g, ''));
    if (c.cls === 'forbidden') throw invalid([{ field: 'url', message: `is a ${c.en} address, never called / 是${c.zh}，不允许调用` }]);
    if (!hasSecret) throw invalid([{ field: 'secret', message: NEED_SECRET }]);
  } else if (!v.email_to) {
    throw invalid([{ field: 'email_to', message: NEED_EMAIL }]);
  }
}

const storeSecret = (db: Queryable, id: number, enc: string) => db.query(`UPDATE notification_channel SET secret_enc = $2 WHERE id = $1`, [id, enc]);

const createRoute = route({
  method: 'POST',
  path: 'notification/channel/create',
  access: { permission: NK.channelAdd },
  tags: ['notification'],
  summary: "Add a shop's delivery channel: a signed webhook (url + secret, the secret stored encrypted and never returned) or an e-mail address",
  body: createBody,
  reply: rowSchema(notificationChannel),
  handler: async (ctx) => {
    const { secret = '', ...values } = ctx.body;
    await check(ctx.db, values, !!secret);
    const enc = values.kind === 'webhook' ? encryptSecret(secret, 'secret') : '';
    const row = await insertRow(notificationChannel, ctx, { ...values, secret_masked: enc ? maskSecret(secret) : '' });
    if (enc) await storeSecret(ctx.db, row.id as number, enc);
    return row;
  },
});

const updateRoute = route({
  method: 'POST',
  path: 'notification/channel/update',
  access: { permission: NK.channelUpdate },
  tags: ['notification'],
  summary: 'Change a delivery channel (no secret: the stored one stays, unless the address changes — a new address needs the secret typed again)',
  body: updateBody,
  reply: rowSchema(notificationChannel),
  handler: async (ctx) => {
    const { id, secret = '', shop_id: shopId, kind, ...values } = ctx.body;
    const before = await mustFind(notificationChannel, ctx, id);
    if (shopId !== undefined && shopId !== before.shop_id) throw invalid([{ field: 'shop_id', message: "a channel's shop cannot change: add a channel to the other shop / 渠道所属店铺不能修改，请为另一店铺新增渠道" }]);
    if (kind !== undefined && kind !== before.kind) throw invalid([{ field: 'kind', message: "a channel's kind cannot change: add a new channel / 渠道类型不能修改，请新增渠道" }]);
    // a new address without the secret typed again keeps no secret (as a model server's key)
    const moved = values.url !== undefined && values.url !== before.url;
    const keeps = !!before.secret_masked && !moved;
    await check(ctx.db, { ...before, ...values, shop_id: undefined }, !!secret || keeps);
    if (secret && before.kind === 'webhook') {
      await storeSecret(ctx.db, id, encryptSecret(secret, 'secret'));
      values.secret_masked = maskSecret(secret);
    }
    return updateRow(notificationChannel, ctx, id, values, before);
  },
});

notificationChannel.actions = [createRoute, updateRoute];
