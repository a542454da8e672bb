import { Type } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { shopOptions } from '../shops/shop.js';
import { SK } from './keys.js';
import type { ResourceDef } from '../engine/types.js';
import { CONFIG_RESOURCES } from '../config/config-center.js';
import { imageExtraction, storedFile } from '../config/ops-tools.js';
import { policyImportLog } from '../config/policy-import.js';
import { playgroundOptionsRoute, playgroundRoute, prompt } from '../config/prompt.js';
import { categoryGroup, categoryItem } from './categories.js';
import { categoryImportRoute } from './category-import.js';
import { feedback } from './feedback.js';
import { sessionMark } from './marks.js';
import { chatSession, mailSession, voiceSession } from './viewers.js';
import { sessionTrainRoute } from './train.js';
import { sessionBatchStatusRoute } from './batch-status.js';
import { ShopOptionsReply } from '../../../src/contract/replies/shops.js';

/** The resources of the session, config-center, operations-tools and prompt areas (docs/modules/sessions.md). */
export const SESSION_RESOURCES: ResourceDef[] = [
  chatSession, mailSession, voiceSession, sessionMark, feedback, categoryGroup, categoryItem,
  ...CONFIG_RESOURCES, imageExtraction, storedFile, policyImportLog, prompt,
];

/** Shops for the pickers of these pages (the shared `shop-list` picker does not know their keys). */
const shopOptionsRoute = route({
  method: 'GET',
  path: 'session-area/shop-options',
  access: { permission: Object.values(SK) },
  summary: 'Shops (id, name, label `id-name`, type, customer name) for the pickers of the session / config / tools / prompt pages',
  query: Type.Object(
    {
      keyword: Type.Optional(Type.String({ maxLength: 100 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000, default: 500 })),
    },
    { additionalProperties: false },
  ),
  reply: ShopOptionsReply,
  handler: async ({ db, query: q }) => {
    const rows = await shopOptions(db, { keyword: q.keyword, limit: q.limit ?? 500 });
    return rows.map(({ env: _env, ...s }) => ({ ...s, label: `${s.id}-${s.name}` }));
  },
});

export const sessionRoutes: RouteDef[] = [playgroundRoute, playgroundOptionsRoute, shopOptionsRoute, categoryImportRoute, sessionTrainRoute, sessionBatchStatusRoute];
