import type { RouteDef } from '../http/route.js';
import { resourceRoutes } from './engine/routes.js';
import type { ResourceDef } from './engine/types.js';
import { chatAssistant } from './learning/chat-assistant.js';
import { douyinProduct } from './learning/douyin-product.js';
import { learnDoc } from './learning/learn-doc.js';
import { knowledgeRoutes, learnKnowledge, learnMaterial } from './learning/learn-material.js';
import { hitTestRoutes } from './learning/knowledge-hit-test.js';
import { customer, mailAccount, merchantRoutes } from './shops/merchant.js';
import { NOTIFY_RESOURCES, notification } from './notifications/notification.js';
import { order } from './shops/order.js';
import { plan, planConfigRoute } from './shops/plan.js';
import { learnTodoRoute } from './learning/learn-todo.js';
import { planOrder, planOrderRoutes } from './shops/plan-order.js';
import { learnPolicy, learnPolicyProduct, policy } from './learning/policy.js';
import { productDesc } from './learning/product-desc.js';
import { shop, shopRoutes } from './shops/shop.js';
import { pageGroupRoutes, replyTemplate } from './page-groups/index.js';
import { SESSION_RESOURCES, sessionRoutes } from './sessions/index.js';
import { recordImportRoutes } from './shops/record-import.js';
import { VOICE_RESOURCES, voiceRoutes } from './voice/index.js';
import { LAB_RESOURCES } from './lab/index.js';

/** Every business resource, declared once each (server/resources/<name>.ts). */
export const RESOURCES: ResourceDef[] = [
  shop, customer, mailAccount, order, plan, planOrder, notification, policy, learnPolicy, learnPolicyProduct,
  learnMaterial, learnKnowledge, learnDoc, productDesc, chatAssistant, douyinProduct, replyTemplate,
  ...SESSION_RESOURCES,
  ...NOTIFY_RESOURCES,
  ...VOICE_RESOURCES,
  ...LAB_RESOURCES,
];

/** The business routes (spec section 7 and the regular pattern where the spec is silent). */
export const routes: RouteDef[] = [
  ...RESOURCES.flatMap(resourceRoutes),
  ...shopRoutes,
  ...merchantRoutes,
  planConfigRoute,
  learnTodoRoute,
  ...planOrderRoutes,
  ...knowledgeRoutes,
  ...hitTestRoutes,
  ...sessionRoutes,
  ...voiceRoutes,
  ...pageGroupRoutes,
  ...recordImportRoutes,
];
