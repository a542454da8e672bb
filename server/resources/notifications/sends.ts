/**
 * The sends of pushed notices (one per delivery and channel, server/notify/sends.ts) and their
 * attempts (the delivery log), read only: `notification/send/list` and
 * `notification/send-attempt/list`, both filtered by notification.
 */
import type { Queryable } from '../../db/db.js';
import { SANDBOX_TARGET } from '../../notify/sandbox.js';
import { notifySettings } from '../../notify/settings.js';
import { F } from '../engine/fields.js';
import { ID } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { enumFile } from '../enums.js';
import { K } from '../keys.js';
import { NK } from './keys.js';

const values = (id: 'notify_send_state' | 'notify_channel_kind') => enumFile(id).items.map((i) => String(i.value));
export const SEND_STATES = values('notify_send_state');
export const CHANNEL_KINDS = values('notify_channel_kind');

/**
 * Writes the sends of these shops' deliveries: one per enabled channel of the shop, or (demo
 * data, `sandbox`) one to the sandbox receiver for a shop with none. A send that failed before
 * is armed again with a fresh set of attempts (a re-push retries it); others stay as they are.
 * Returns how many sends were written or re-armed.
 */
export async function addSends(q: Queryable, notificationId: number, shops: number[], sandbox: boolean, now: Date = new Date()): Promise<number> {
  const r = await q.query(
    `WITH targets AS (
       SELECT c.shop_id, c.kind AS channel, c.id AS channel_id, c.kind || ':' || c.id AS channel_key,
              CASE WHEN c.kind = 'webhook' THEN c.url ELSE c.email_to END AS target
         FROM notification_channel c WHERE c.enabled AND c.shop_id = ANY($2::int[])
       UNION ALL
       SELECT s, 'sandbox', NULL::int, 'sandbox', $4 FROM unnest($2::int[]) s
        WHERE $3 AND NOT EXISTS (SELECT 1 FROM notification_channel c WHERE c.shop_id = s AND c.enabled))
     INSERT INTO notification_send (notification_id, shop_id, channel, channel_id, channel_key, target, max_attempts, next_attempt_at)
     SELECT $1, shop_id, channel, channel_id, channel_key, target, $5, $6 FROM targets
     ON CONFLICT (notification_id, shop_id, channel_key) DO UPDATE
        SET state = 'pending', max_attempts = notification_send.attempts + EXCLUDED.max_attempts, next_attempt_at = EXCLUDED.next_attempt_at,
            last_error = '', updated_at = now()
      WHERE notification_send.state = 'failed'`,
    [notificationId, shops, sandbox, SANDBOX_TARGET, notifySettings().maxAttempts, now],
  );
  return r.affectedRows;
}

const NOTICE_READ = [K.notice, NK.noticeDetail];

export const notificationSend: ResourceDef = {
  name: 'notification/send',
  table: 'notification_send',
  keywordIds: ['shop_id'],
  defaultSort: { field: 'id', order: 'asc' },
  fields: {
    id: F.id(),
    notification_id: { schema: ID, readOnly: true, filter: 'eq' },
    shop_id: { schema: ID, readOnly: true, filter: 'eq', sort: true },
    shop_name: F.shopName(),
    channel: { ...F.enumOf(CHANNEL_KINDS), readOnly: true },
    sandbox: { schema: { type: 'boolean' }, virtual: true, select: "(t.channel = 'sandbox')" },
    target: F.str(500, { readOnly: true }),
    state: { ...F.enumOf(SEND_STATES), readOnly: true },
    attempts: { schema: { type: 'integer' }, readOnly: true, sort: true },
    max_attempts: { schema: { type: 'integer' }, readOnly: true },
    next_attempt_at: F.dateTime({ readOnly: true }),
    idempotency_key: F.str(64, { readOnly: true }),
    last_status: { schema: { type: 'integer' }, nullable: true, readOnly: true },
    last_error: F.str(500, { readOnly: true }),
    delivered_at: F.dateTime({ nullable: true, readOnly: true }),
    read_at: {
      schema: { type: 'string', format: 'date-time' },
      nullable: true,
      virtual: true,
      select: '(SELECT d.read_at FROM notification_delivery d WHERE d.notification_id = t.notification_id AND d.shop_id = t.shop_id)',
    },
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: { list: { permission: NOTICE_READ } },
};

export const notificationSendAttempt: ResourceDef = {
  name: 'notification/send-attempt',
  table: 'notification_send_attempt',
  joins: 'JOIN notification_send ns ON ns.id = t.send_id',
  keywordIds: ['send_id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    send_id: { schema: ID, readOnly: true, filter: 'eq' },
    notification_id: {
      schema: ID,
      virtual: true,
      filter: 'eq',
      select: 'ns.notification_id',
      filterWhere: 't.send_id IN (SELECT x.id FROM notification_send x WHERE x.notification_id = $value)',
    },
    shop_id: { schema: { type: 'integer' }, virtual: true, select: 'ns.shop_id' },
    shop_name: { ...F.shopName(), select: '(SELECT s.name FROM shop s WHERE s.id = ns.shop_id)' },
    channel: { schema: { type: 'string' }, virtual: true, select: 'ns.channel' },
    target: { schema: { type: 'string' }, virtual: true, select: 'ns.target' },
    attempt: { schema: { type: 'integer' }, readOnly: true },
    outcome: { ...F.enumOf(['sending', 'ok', 'error', 'lost']), readOnly: true },
    status_code: { schema: { type: 'integer' }, nullable: true, readOnly: true },
    error: F.str(500, { readOnly: true }),
    worker: F.str(120, { readOnly: true }),
    started_at: F.dateTime({ readOnly: true }),
    finished_at: F.dateTime({ nullable: true, readOnly: true }),
    duration_ms: { schema: { type: 'integer' }, nullable: true, readOnly: true },
  },
  operations: { list: { permission: NOTICE_READ } },
};
