/**
 * Calls from the merchant side (a shop's own console or plugin), outside the admin console:
 * public routes under /api/common/merchant/, each authorised by a capability it carries (a
 * notification delivery's read token), never by a console session.
 */
import type { RouteDef } from '../http/route.js';
import { merchantReadRoute } from '../resources/notifications/notification.js';

export const routes: RouteDef[] = [merchantReadRoute];
