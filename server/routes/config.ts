import { DEFAULT_PAGE_SIZE } from '../../src/contract/codes.js';
import { MAX_PAGE_SIZE } from '../http/list.js';
import { defineRoutes } from '../http/route.js';

export const routes = defineRoutes([
  {
    method: 'GET',
    path: 'config',
    base: 'common',
    access: 'public',
    summary: 'Public settings of the console',
    // the client may send query parameters (spec section 7); none are required
    query: { type: 'object', additionalProperties: true },
    reply: {
      type: 'object',
      properties: {
        app_name: { type: 'string' },
        version: { type: 'string' },
        locales: { type: 'array', items: { type: 'string' } },
        default_locale: { type: 'string' },
        default_page_size: { type: 'integer' },
        max_page_size: { type: 'integer' },
        demo: { type: 'boolean' },
      },
    },
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
  },
]);
