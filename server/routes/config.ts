import { DEFAULT_PAGE_SIZE } from '../../src/contract/codes.js';
import { MAX_PAGE_SIZE } from '../http/list.js';
import { Type } from '@sinclair/typebox';
import { defineRoutes, route } from '../http/route.js';
import { AppConfigReply } from '../../src/contract/replies/session.js';

export const routes = defineRoutes([
  route({
    method: 'GET',
    path: 'config',
    base: 'common',
    access: 'public',
    summary: 'Public settings of the console',
    // the client may send query parameters (spec section 7); none are required
    query: Type.Object({}, { additionalProperties: true }),
    reply: AppConfigReply,
    async handler(ctx) {
      const c = ctx.req.server.backofficeConfig;
      return {
        app_name: c.appName,
        version: c.version,
        locales: ['zh-CN', 'en-US'],
        default_locale: 'zh-CN',
        default_page_size: DEFAULT_PAGE_SIZE,
        max_page_size: MAX_PAGE_SIZE,
        demo: c.seedDemo,
      };
    },
  }),
]);
