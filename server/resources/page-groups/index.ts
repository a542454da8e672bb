/**
 * The "other page groups" of spec section 2 that had no server side yet (docs/modules/page-groups.md), one file each:
 * - template management: `reply-template/*` (reply and notification templates, migration 0020);
 * - sync message and log: `POST shop/sync` starts a `shop.sync` job of the work engine, whose rows
 *   are the sync log (`GET shop-sync/list`, `GET shop-sync/detail`, also read by the result pages);
 * - renew detail: `GET plan-order/renew-detail` (an order with the order it renews);
 * - the modals: `GET policy/versions`, `GET session/dialogue`, `GET session/message-extra`;
 * - issue 26: the shop introduction modal and the pro form (shop-intro.ts), the customer list's
 *   config, note and download modals (customer-modals.ts).
 */
import type { RouteDef } from '../../http/route.js';
import { customerModalRoutes } from './customer-modals.js';
import { modalRoutes } from './modals.js';
import { shopIntroRoutes } from './shop-intro.js';
import { syncRoutes } from './sync.js';

export { replyTemplate } from './templates.js';
export { shopSyncKind } from './sync.js';

export const pageGroupRoutes: RouteDef[] = [...syncRoutes, ...modalRoutes, ...shopIntroRoutes, ...customerModalRoutes];
