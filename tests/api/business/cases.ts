import type { BizEnv, Fixtures } from './helpers.js';

const T = 'intelligent_text';
const V = 'intelligent_voice';

type Payload = Record<string, unknown>;

/** One route of spec section 7 (or the regular pattern): how to call it right, wrong, and who may. */
export interface RouteCase {
  method: 'GET' | 'POST';
  path: string;
  /** a flattened key that grants the route (the success call is made by an account holding only it) */
  key: string;
  ok: (fx: Fixtures, extra: Payload) => Payload;
  bad: (fx: Fixtures, extra: Payload) => Payload;
  badField: string;
  /** table the route changes (proved unchanged after the refused calls) */
  table?: string;
  /** expected audit row of the success call */
  audit?: { action: string; resource: string; before?: boolean; after?: boolean };
  /** rows to create first (returned ids are passed as `extra`) */
  prepare?: (env: BizEnv) => Promise<Payload>;
  check?: (data: any, fx: Fixtures) => void;
}

const page = (extra: Payload = {}) => () => ({ page: 1, page_size: 5, ...extra });
const badPage = () => ({ page_size: 0 });
const list = (path: string, key: string, filters: Payload = {}): RouteCase => ({
  method: 'GET', path, key, ok: page(filters), bad: badPage, badField: 'page_size',
  check: (d) => {
    if (!Array.isArray(d.list) || typeof d.total !== 'number' || d.page !== 1 || d.page_size !== 5) throw new Error(`not a page: ${JSON.stringify(d).slice(0, 200)}`);
  },
});
const detail = (path: string, key: string, id: (fx: Fixtures) => number): RouteCase => ({
  method: 'GET', path, key, ok: (fx) => ({ id: id(fx) }), bad: () => ({ id: 'abc' }), badField: 'id',
  check: (d, fx) => {
    if (d.id !== id(fx)) throw new Error(`wrong row ${JSON.stringify(d).slice(0, 100)}`);
  },
});

async function create(env: BizEnv, path: string, body: Payload): Promise<number> {
  return (await env.admin.ok('POST', path, body)).id as number;
}

export const CASES: RouteCase[] = [
  // shops, plans, orders, users
  list('shop/list', `${T}.text.shop.list`, { env: 'prod', sort_by: 'created_at', sort_order: 'asc' }),
  list('shop/list', `${V}.voice.customer.list`, { keyword: 'nova', is_ka: false }),
  detail('shop/detail', `${T}.text.shop.list`, (fx) => fx.shopId),
  {
    method: 'POST', path: 'shop/create', key: `${T}.text.shop.list.edit`, table: 'shop',
    ok: (fx) => ({ name: 'Test Shop', type: 1, user_id: fx.userId, link: 'https://test-shop.myshopify.com', env: 'dev', creation_source: 0, country_code: 'US' }),
    bad: () => ({ name: 'x', type: 9 }), badField: 'type', audit: { action: 'create', resource: 'shop', after: true },
  },
  {
    method: 'POST', path: 'shop/update', key: `${T}.text.shop.list.edit`, table: 'shop',
    ok: (fx) => ({ id: fx.otherShopId, is_ka: true, ai_status: 1 }),
    bad: (fx) => ({ id: fx.otherShopId, env: 'staging' }), badField: 'env', audit: { action: 'update', resource: 'shop', before: true, after: true },
  },
  {
    method: 'GET', path: 'shop-list', key: `${T}.text.shop.list`, ok: () => ({ env: 'all' }), bad: () => ({ env: 'qa' }), badField: 'env',
    check: (d) => {
      const prod = d.find((x: any) => x.env === 'prod');
      if (!prod || prod.label !== `${prod.id}-${prod.name}`) throw new Error('prod entries must be labelled id-name');
    },
  },
  {
    method: 'POST', path: 'policy/copy', key: `${T}.text.shop.list.copy_policy`, table: 'policy',
    ok: (fx) => ({ source_shop_id: fx.shopId, target_shop_id: fx.otherShopId }),
    bad: (fx) => ({ source_shop_id: fx.shopId, target_shop_id: fx.shopId }), badField: 'target_shop_id',
    audit: { action: 'copy', resource: 'policy', after: true },
    check: (d) => { if (!(d.copied > 0)) throw new Error('nothing copied'); },
  },
  list('customer/list', `${T}.text.shop.customer_list`, { country_code: 'US' }),
  detail('customer/detail', `${V}.voice.customer.customer_list`, (fx) => fx.userId),
  {
    method: 'POST', path: 'customer/create', key: `${T}.text.shop.customer_list`, table: 'merchant_user',
    ok: () => ({ name: 'New Merchant', email: 'new.merchant@example.com', country_code: 'DE' }),
    bad: () => ({ name: 'New Merchant', email: 'not-an-email' }), badField: 'email', audit: { action: 'create', resource: 'merchant_user', after: true },
  },
  {
    method: 'POST', path: 'customer/update', key: `${T}.text.shop.customer_list`, table: 'merchant_user',
    ok: (fx) => ({ id: fx.userId, phone: '+49 30 1234567' }),
    bad: (fx) => ({ id: fx.userId, country_code: 'germany' }), badField: 'country_code', audit: { action: 'update', resource: 'merchant_user', before: true, after: true },
  },
  list('shop/mail-account/list', `${T}.text.learn.material`),
  { ...list('shop/mail-account/list', `${T}.text.shop.list`), ok: () => ({ page: 1, page_size: 1000 }), check: (d) => { if (d.page_size !== 1000) throw new Error('page_size 1000 refused'); } },
  { ...list('users', `${T}.text.shop.customer_list`) },
  detail('user/info', `${T}.text.shop.customer_list`, (fx) => fx.userWithShopId),
  {
    method: 'GET', path: 'user/search-by-id', key: `${T}.text.shop.plan_order`, ok: () => ({ id: '1', limit: 100 }), bad: () => ({ id: '1', limit: 101 }), badField: 'limit',
    check: (d) => { if (!Array.isArray(d) || d.length === 0 || d.length > 100 || !d.every((u: any) => String(u.id).startsWith('1'))) throw new Error('bad search'); },
  },
  {
    method: 'GET', path: 'user/shop-mail-list', key: `${T}.text.shop.customer_list`, ok: (fx) => ({ id: fx.userWithShopId }), bad: () => ({}), badField: 'id',
    check: (d) => { if (!Array.isArray(d) || !d.length || !Array.isArray(d[0].mail_accounts)) throw new Error('no shops with mail accounts'); },
  },
  list('order/list', `${T}.text.order.shopify`, { financial_status: 'paid', created_at_from: '2025-01-01', created_at_to: '2026-12-31' }),
  detail('order/detail', `${T}.text.order.shopify`, (fx) => fx.orderId),
  list('plan/list', `${T}.text.shop.plan`, { product: 'text' }),
  detail('plan/detail', `${V}.voice.customer.plan`, (fx) => fx.planId),
  { method: 'GET', path: 'plan/config', key: `${T}.text.shop.plan`, ok: () => ({}), bad: () => ({ foo: 1 }), badField: 'foo' },
  {
    method: 'POST', path: 'plan/create', key: `${T}.text.shop.plan.create`, table: 'plan',
    ok: () => ({ name: 'Scale', product: 'text', period: 'month', price: 499, currency: 'USD', chat_quota: 50000 }),
    bad: () => ({ name: 'Scale', product: 'text', period: 'month', price: -1 }), badField: 'price', audit: { action: 'create', resource: 'plan', after: true },
  },
  {
    method: 'POST', path: 'plan/update', key: `${T}.text.shop.plan.update`, table: 'plan',
    ok: (fx) => ({ id: fx.planId, price: 39 }), bad: (fx) => ({ id: fx.planId, period: 'weekly' }), badField: 'period',
    audit: { action: 'update', resource: 'plan', before: true, after: true },
  },
  list('plan-order/list', `${T}.text.shop.plan_order`, { status: 1 }),
  detail('plan-order/detail', `${V}.voice.customer.plan_order`, (fx) => fx.planOrderId),
  {
    method: 'GET', path: 'plan-order/log-info', key: `${T}.text.shop.plan_order`, ok: (fx) => ({ id: fx.planOrderId }), bad: () => ({}), badField: 'id',
    check: (d) => { if (!d.list.length || !d.list.some((l: any) => l.action === 'create')) throw new Error('no log'); },
  },
  {
    method: 'POST', path: 'plan-order/create', key: `${T}.text.shop.plan_order.create`, table: 'plan_order',
    ok: (fx) => ({ user_id: fx.userId, plan_id: fx.planId, amount: 29, start_at: '2026-11-01T00:00:00Z', end_at: '2026-12-01T00:00:00Z' }),
    bad: (fx) => ({ user_id: fx.userId, plan_id: fx.planId, amount: 29, start_at: '2026-11-01T00:00:00Z', end_at: '2026-10-01T00:00:00Z' }), badField: 'end_at',
    audit: { action: 'create', resource: 'plan_order', after: true },
    check: (d) => { if (!/^PO\d{14}$/.test(d.order_no)) throw new Error(`order_no ${d.order_no}`); },
  },
  {
    method: 'POST', path: 'plan-order/update', key: `${T}.text.shop.plan_order.update`, table: 'plan_order',
    ok: (fx) => ({ id: fx.planOrderId, status: 3, remark: 'cancelled by merchant' }), bad: (fx) => ({ id: fx.planOrderId, status: 9 }), badField: 'status',
    audit: { action: 'update', resource: 'plan_order', before: true, after: true },
  },
  // notifications
  { method: 'GET', path: 'notification/target-types', key: `${T}.text.merchant_notice.notice_list`, ok: () => ({}), bad: () => ({ x: 1 }), badField: 'x', check: (d) => { if (d.length < 2 || !d[0].label) throw new Error('types'); } },
  list('notification/list', `${T}.text.merchant_notice.notice_list`, { status: 1 }),
  detail('notification/detail', `${T}.text.merchant_notice.notice_list`, (fx) => fx.pushedNoticeId),
  {
    method: 'POST', path: 'notification/add', key: `${T}.text.merchant_notice.notice_list.add`, table: 'notification',
    ok: () => ({ title: 'Holiday hours', content: 'We are closed on Dec 25.', target_types: [1, 2] }),
    bad: () => ({ title: 'Holiday hours', content: 'x', target_types: [] }), badField: 'target_types',
    audit: { action: 'create', resource: 'notification', after: true },
  },
  {
    method: 'POST', path: 'notification/update', key: `${T}.text.merchant_notice.notice_list.update`, table: 'notification',
    ok: (fx) => ({ id: fx.draftNoticeId, title: 'Updated title' }), bad: (fx) => ({ id: fx.draftNoticeId, target_types: [] }), badField: 'target_types',
    audit: { action: 'update', resource: 'notification', before: true, after: true },
  },
  {
    method: 'POST', path: 'notification/delete', key: `${T}.text.merchant_notice.notice_list.delete`, table: 'notification',
    prepare: async (env) => ({ id: await create(env, 'notification/add', { title: 'tmp', content: 'tmp', target_types: [3] }) }),
    ok: (_fx, x) => ({ id: x.id }), bad: () => ({ id: 0 }), badField: 'id', audit: { action: 'delete', resource: 'notification', before: true },
  },
  {
    method: 'POST', path: 'notification/push', key: `${T}.text.merchant_notice.notice_list.push`, table: 'notification',
    prepare: async (env) => ({ id: await create(env, 'notification/add', { title: 'Push me', content: 'x', target_types: [1] }) }),
    ok: (_fx, x) => ({ id: x.id }), bad: (_fx, x) => ({ id: x.id, force: 'yes' }), badField: 'force',
    audit: { action: 'push', resource: 'notification', before: true, after: true },
    // the fan-out is a `notification.push` job (background.test.ts follows it to the end)
    check: (d) => { if (d.status !== 2 || !(d.push_job_id > 0)) throw new Error(`not pushing ${JSON.stringify(d)}`); },
  },
  // learning
  list('learn-material/list', `${T}.text.learn.material`, { status: 0, channel: 'chat' }),
  detail('learn-material/info', `${T}.text.learn.material.detail`, (fx) => fx.materialId),
  {
    method: 'POST', path: 'learn-material/remark', key: `${T}.text.learn.material.remark`, table: 'learn_material',
    ok: (fx) => ({ id: fx.materialId, remark: 'looks good' }), bad: (fx) => ({ id: fx.materialId, remark: 'x'.repeat(1001) }), badField: 'remark',
    audit: { action: 'remark', resource: 'learn_material', before: true, after: true },
  },
  {
    method: 'POST', path: 'learn-material/ticket-learn', key: `${T}.text.learn.material.ticket_learn`, table: 'learn_material',
    ok: (fx) => ({ id: fx.materialId }), bad: () => ({}), badField: 'id',
    audit: { action: 'ticket_learn', resource: 'learn_material', before: true, after: true },
  },
  {
    method: 'POST', path: 'learn-material/update-ticket-learn', key: `${T}.text.learn.material.ticket_learn`, table: 'learn_material',
    ok: (fx) => ({ id: fx.materialId, ticket_learn: 2, ticket_learn_note: 'done' }), bad: (fx) => ({ id: fx.materialId, ticket_learn: 7 }), badField: 'ticket_learn',
    audit: { action: 'update_ticket_learn', resource: 'learn_material', before: true, after: true },
  },
  {
    method: 'POST', path: 'learn-knowledge/create', key: `${T}.text.learn.material.detail`, table: 'learn_knowledge',
    ok: (fx) => ({ material_id: fx.materialId, shop_id: fx.shopId, question: 'Do you ship to Canada?', answer: 'Yes, in 5–8 days.' }),
    bad: (fx) => ({ shop_id: fx.shopId, question: '', answer: 'x' }), badField: 'question',
    audit: { action: 'create', resource: 'learn_knowledge', after: true },
  },
  {
    method: 'POST', path: 'learn-knowledge/to-policy', key: `${T}.text.learn.material.detail`, table: 'policy',
    prepare: async (env) => ({ id: await create(env, 'learn-knowledge/create', { shop_id: env.fx.shopId, question: 'Gift wrap?', answer: 'Yes, $3.' }) }),
    ok: (_fx, x) => ({ id: x.id }), bad: (_fx, x) => ({ id: x.id, source_type: 12 }), badField: 'source_type',
    audit: { action: 'to_policy', resource: 'learn_knowledge', before: true, after: true },
  },
  list('shop/policy/list', `${T}.text.learn.store_policy`, { source_type: 1 }),
  detail('shop/policy/detail', `${T}.text.learn.policy_management`, (fx) => fx.policyId),
  {
    method: 'POST', path: 'shop/policy/create', key: `${T}.text.learn.policy_management.create`, table: 'policy',
    ok: (fx) => ({ shop_id: fx.shopId, title: 'Gift cards', content: 'Gift cards never expire.', source_type: 10, channel: 'email' }),
    bad: (fx) => ({ shop_id: fx.shopId, title: 'Gift cards', content: 'x', source_type: 10, channel: 'sms' }), badField: 'channel',
    audit: { action: 'create', resource: 'policy', after: true },
  },
  {
    method: 'POST', path: 'shop/policy/update', key: `${T}.text.learn.policy_management.update`, table: 'policy',
    ok: (fx) => ({ id: fx.policyId, title: 'Shipping (updated)' }), bad: (fx) => ({ id: fx.policyId, title: '' }), badField: 'title',
    audit: { action: 'update', resource: 'policy', before: true, after: true },
  },
  {
    method: 'POST', path: 'shop/policy/delete', key: `${T}.text.learn.policy_management.delete`, table: 'policy',
    prepare: async (env) => ({ id: await create(env, 'shop/policy/create', { shop_id: env.fx.shopId, title: 't', content: 't', source_type: 1, channel: 'chat' }) }),
    ok: (_fx, x) => ({ id: x.id }), bad: () => ({ id: -1 }), badField: 'id', audit: { action: 'delete', resource: 'policy', before: true },
  },
  list('shop/learn-policy/list', `${T}.text.learn.auto_learn_policy`),
  {
    method: 'POST', path: 'shop/learn-policy/update', key: `${T}.text.learn.auto_learn_policy`, table: 'learn_policy',
    ok: (fx) => ({ id: fx.learnPolicyId, status: 1 }), bad: (fx) => ({ id: fx.learnPolicyId, shop_id: 1 }), badField: 'shop_id',
    audit: { action: 'update', resource: 'learn_policy', before: true, after: true },
  },
  list('shop/learn-policy-product/list', `${T}.text.learn.auto_learn_product`),
  {
    method: 'POST', path: 'shop/learn-policy-product/update', key: `${T}.text.learn.auto_learn_product`, table: 'learn_policy_product',
    ok: (fx) => ({ id: fx.learnPolicyProductId, status: 2 }), bad: (fx) => ({ id: fx.learnPolicyProductId, status: 'ok' }), badField: 'status',
    audit: { action: 'update', resource: 'learn_policy_product', before: true, after: true },
  },
  list('learn-doc/list', `${T}.text.learn.doc_manage`, { status: 1 }),
  {
    method: 'POST', path: 'learn-doc/delete', key: `${T}.text.learn.doc_manage.delete`, table: 'learn_doc',
    prepare: async (env) => ({ id: (await env.s.db.query<{ id: number }>(`INSERT INTO learn_doc (name, file_type, size, status) VALUES ('tmp.txt', 'txt', 1, 1) RETURNING id`)).rows[0].id }),
    ok: (_fx, x) => ({ id: x.id }), bad: () => ({ id: 'x' }), badField: 'id', audit: { action: 'delete', resource: 'learn_doc', before: true },
  },
  {
    method: 'POST', path: 'learn-doc/get-content', key: `${T}.text.learn.doc_manage`, ok: (fx) => ({ id: fx.docId }), bad: () => ({ id: 1, x: 1 }), badField: 'x',
    check: (d) => { if (d.status !== 1 || !d.content) throw new Error('no content'); },
  },
  list('shop-product-desc/list', `${T}.text.learn.product_knowledge`, { keyword: 'lamp' }),
  {
    method: 'POST', path: 'shop-product-desc/edit', key: `${T}.text.learn.product_knowledge`, table: 'product_desc',
    ok: (fx) => ({ id: fx.productDescId, identified_desc: 'Hand-checked description.' }), bad: (fx) => ({ id: fx.productDescId }), badField: 'identified_desc',
    audit: { action: 'edit', resource: 'product_desc', before: true, after: true },
  },
  {
    method: 'POST', path: 'shop-product-desc/reidentify', key: `${T}.text.learn.product_knowledge`, table: 'product_desc',
    ok: (fx) => ({ id: fx.productDescId }), bad: () => ({ id: 0 }), badField: 'id', audit: { action: 'reidentify', resource: 'product_desc', before: true, after: true },
  },
  // chat assistants
  list('chat/assistant/list', `${T}.admin.learn_center.text_assistant`, { status: 1 }),
  detail('chat/assistant/info', `${T}.admin.learn_center.text_assistant.detail`, (fx) => fx.assistantId),
  {
    method: 'POST', path: 'chat/assistant/create', key: `${T}.admin.learn_center.text_assistant.add`, table: 'chat_assistant',
    ok: () => ({ name: 'Returns helper', model: 'gpt-4o-mini', prompt: 'Be brief.', temperature: 0.3 }),
    bad: () => ({ name: 'Returns helper', model: 'gpt-4o-mini', prompt: 'Be brief.', temperature: 3 }), badField: 'temperature',
    audit: { action: 'create', resource: 'chat_assistant', after: true },
  },
  {
    method: 'POST', path: 'chat/assistant/update', key: `${T}.admin.learn_center.text_assistant.edit`, table: 'chat_assistant',
    ok: (fx) => ({ id: fx.assistantId, welcome_message: 'Hello!' }), bad: (fx) => ({ id: fx.assistantId, model: 'gpt-2' }), badField: 'model',
    audit: { action: 'update', resource: 'chat_assistant', before: true, after: true },
  },
  {
    method: 'POST', path: 'chat/assistant/copy', key: `${T}.admin.learn_center.text_assistant.add`, table: 'chat_assistant',
    ok: (fx) => ({ id: fx.assistantId }), bad: (fx) => ({ id: fx.assistantId, name: '' }), badField: 'name',
    audit: { action: 'create', resource: 'chat_assistant', after: true },
    check: (d) => { if (!String(d.name).endsWith(' copy') || d.status !== 0) throw new Error('bad copy'); },
  },
  {
    method: 'POST', path: 'chat/assistant/delete', key: `${T}.admin.learn_center.text_assistant`, table: 'chat_assistant',
    prepare: async (env) => ({ id: await create(env, 'chat/assistant/create', { name: 'tmp', model: 'gpt-4o', prompt: 'x' }) }),
    ok: (_fx, x) => ({ id: x.id }), bad: () => ({}), badField: 'id', audit: { action: 'delete', resource: 'chat_assistant', before: true },
  },
  // Douyin products
  list('shop/douyin-shop-policy-product/list', `${T}.text.learn.product_knowledge`, { status: 1 }),
  detail('shop/douyin-shop-policy-product/detail', `${T}.text.operations_tools.policy_import`, (fx) => fx.douyinProductId),
  {
    method: 'POST', path: 'shop/douyin-shop-policy-product/create', key: `${T}.text.operations_tools.policy_import`, table: 'douyin_product',
    ok: (fx) => ({ shop_id: fx.douyinShopId, product_id: 'DY-NEW-1', title: '新品保温杯', price: 59.9, policy: '7天无理由退货' }),
    bad: (fx) => ({ shop_id: fx.douyinShopId, product_id: 'bad id!', title: 'x' }), badField: 'product_id',
    audit: { action: 'create', resource: 'douyin_product', after: true },
  },
  {
    method: 'POST', path: 'shop/douyin-shop-policy-product/update', key: `${T}.text.learn.product_knowledge`, table: 'douyin_product',
    ok: (fx) => ({ id: fx.douyinProductId, price: 88 }), bad: (fx) => ({ id: fx.douyinProductId, product_id: 'x' }), badField: 'product_id',
    audit: { action: 'update', resource: 'douyin_product', before: true, after: true },
  },
  {
    method: 'POST', path: 'shop/douyin-shop-policy-product/update-remark', key: `${T}.text.learn.product_knowledge`, table: 'douyin_product',
    ok: (fx) => ({ id: fx.douyinProductId, remark: 'checked' }), bad: (fx) => ({ id: fx.douyinProductId }), badField: 'remark',
    audit: { action: 'update_remark', resource: 'douyin_product', before: true, after: true },
  },
  {
    method: 'POST', path: 'shop/douyin-shop-policy-product/check-product-exists', key: `${T}.text.learn.product_knowledge`,
    ok: (fx) => ({ shop_id: fx.douyinShopId, product_id: 'nope-404' }), bad: (fx) => ({ shop_id: fx.douyinShopId }), badField: 'product_id',
    check: (d) => { if (d.exists !== false) throw new Error('should not exist'); },
  },
];
