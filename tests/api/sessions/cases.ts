import type { TestServer } from '../harness.js';

const T = 'intelligent_text';
type Payload = Record<string, unknown>;

export interface Fx {
  shopId: number;
  chatId: number;
  /** a chat session of its own, ongoing (no transcript), for the batch status case */
  batchChatId: number;
  messageId: number;
  mailId: number;
  voiceId: number;
  markId: number;
  feedbackId: number;
  groupId: number;
  itemId: number;
  serverId: number;
  strategyId: number;
  fallbackId: number;
  autoLearnId: number;
  autoLearnShopId: number;
  freeShopId: number;
  divertId: number;
  imageId: number;
  fileId: number;
  promptId: number;
}

const one = async (s: TestServer, sql: string): Promise<number> => {
  const r = await s.db.query<{ id: number }>(sql);
  if (!r.rows[0]) throw new Error(`no demo row for: ${sql}`);
  return Number(r.rows[0].id);
};

export async function fixtures(s: TestServer): Promise<Fx> {
  return {
    shopId: await one(s, `SELECT id FROM shop WHERE id IN (SELECT shop_id FROM policy) ORDER BY id LIMIT 1`),
    chatId: await one(s, `SELECT id FROM chat_session ORDER BY id LIMIT 1`),
    batchChatId: await one(s, `INSERT INTO chat_session (shop_id, customer_name) SELECT id, 'Batch probe' FROM shop ORDER BY id LIMIT 1 RETURNING id`),
    messageId: await one(s, `SELECT id FROM chat_message ORDER BY id LIMIT 1`),
    mailId: await one(s, `SELECT id FROM mail_session ORDER BY id LIMIT 1`),
    voiceId: await one(s, `SELECT id FROM voice_session ORDER BY id LIMIT 1`),
    markId: await one(s, `SELECT id FROM session_mark ORDER BY id LIMIT 1`),
    feedbackId: await one(s, `SELECT id FROM feedback WHERE handle_status = 0 ORDER BY id LIMIT 1`),
    groupId: await one(s, `SELECT id FROM session_category_group ORDER BY id LIMIT 1`),
    itemId: await one(s, `SELECT id FROM session_category_item ORDER BY id LIMIT 1`),
    serverId: await one(s, `SELECT id FROM config_model_server ORDER BY id LIMIT 1`),
    strategyId: await one(s, `SELECT id FROM config_model_strategy ORDER BY id LIMIT 1`),
    fallbackId: await one(s, `SELECT id FROM config_fallback ORDER BY id LIMIT 1`),
    autoLearnId: await one(s, `SELECT id FROM config_auto_learn ORDER BY id LIMIT 1`),
    autoLearnShopId: await one(s, `SELECT id FROM config_auto_learn_shop ORDER BY id LIMIT 1`),
    freeShopId: await one(s, `SELECT id FROM shop WHERE id NOT IN (SELECT shop_id FROM config_auto_learn_shop) ORDER BY id DESC LIMIT 1`),
    divertId: await one(s, `SELECT id FROM config_divert ORDER BY id LIMIT 1`),
    imageId: await one(s, `SELECT id FROM image_extraction ORDER BY id LIMIT 1`),
    fileId: await one(s, `SELECT id FROM stored_file ORDER BY id LIMIT 1`),
    promptId: await one(s, `SELECT id FROM prompt ORDER BY id LIMIT 1`),
  };
}

export interface Case {
  method: 'GET' | 'POST';
  path: string;
  key: string;
  ok: (fx: Fx) => Payload;
  bad: (fx: Fx) => Payload;
  badField: string;
  table?: string;
  audit?: { action: string; resource: string };
  check?: (data: any, fx: Fx) => void;
}

const list = (path: string, key: string, filters: (fx: Fx) => Payload = () => ({})): Case => ({
  method: 'GET', path, key, ok: (fx) => ({ page: 1, page_size: 5, ...filters(fx) }), bad: () => ({ page_size: 0 }), badField: 'page_size',
  check: (d) => {
    if (!Array.isArray(d.list) || d.list.length === 0 || typeof d.total !== 'number') throw new Error(`not a non-empty page: ${JSON.stringify(d).slice(0, 200)}`);
  },
});
const detail = (path: string, key: string, id: (fx: Fx) => number, extra?: string): Case => ({
  method: 'GET', path, key, ok: (fx) => ({ id: id(fx) }), bad: () => ({ id: 'abc' }), badField: 'id',
  check: (d, fx) => {
    if (d.id !== id(fx)) throw new Error(`wrong row ${JSON.stringify(d).slice(0, 100)}`);
    if (extra && (!Array.isArray(d[extra]) || !d[extra].length)) throw new Error(`no ${extra} in ${JSON.stringify(d).slice(0, 200)}`);
  },
});
/** create / update / delete of a config-like resource. */
function crud(base: string, key: string, table: string, resource: string, okCreate: (fx: Fx) => Payload, badCreate: (fx: Fx) => Payload, badField: string, idOf: (fx: Fx) => number, update: Payload): Case[] {
  return [
    { method: 'POST', path: `${base}/create`, key, table, ok: okCreate, bad: badCreate, badField, audit: { action: 'create', resource } },
    { method: 'POST', path: `${base}/update`, key, table, ok: (fx) => ({ id: idOf(fx), ...update }), bad: (fx) => ({ id: idOf(fx), [badField]: badCreate(fx)[badField] }), badField, audit: { action: 'update', resource } },
  ];
}

const CC = `${T}.admin.config_center`;

export const CASES: Case[] = [
  list('session/list', `${T}.text.session.chat`, () => ({ started_at_from: '2026-01-01', keyword: 'order' })),
  detail('session/detail', `${T}.text.session.chat`, (fx) => fx.chatId, 'messages'),
  {
    // the train modal: the session's Q&A becomes a learning material (conversation training, source type 11) of its shop
    method: 'POST', path: 'session/train', key: `${T}.text.session.chat.train`, table: 'learn_material',
    ok: (fx) => ({ session_id: fx.chatId, subject: 'Where is my order?', question: 'Where is my order?', answer: 'It ships tomorrow.' }),
    bad: () => ({ session_id: 999999, subject: 's', question: 'q', answer: 'a' }), badField: 'session_id',
    audit: { action: 'create', resource: 'learn_material' },
    check: (d) => { if (d.source_type !== 11 || d.channel !== 'chat' || d.answer !== 'It ships tomorrow.') throw new Error(JSON.stringify(d)); },
  },
  {
    method: 'POST', path: 'session/batch-status', key: `${T}.text.session.chat.batch_status`, table: 'chat_session',
    ok: (fx) => ({ ids: [fx.batchChatId], status: 'ended' }),
    bad: (fx) => ({ ids: [fx.batchChatId], status: 'closed' }), badField: 'status',
    audit: { action: 'batch_status', resource: 'chat_session' },
    check: (d) => { if (d.done !== 1 || !d.results[0].ok || d.results[0].skipped) throw new Error(JSON.stringify(d)); },
  },
  list('mail-session/list', `${T}.text.session.mail`),
  detail('mail-session/detail', `${T}.text.session.mail`, (fx) => fx.mailId, 'mails'),
  list('voice-session/list', `${T}.text.session.voice`, () => ({ direction: 'inbound' })),
  detail('voice-session/detail', `${T}.text.session.voice`, (fx) => fx.voiceId, 'utterances'),
  list('session/mark/list', `${T}.text.session.mark`),
  detail('session/mark/detail', `${T}.text.session.mark.edit`, (fx) => fx.markId),
  {
    method: 'POST', path: 'session/mark/create', key: `${T}.text.session.mark.add`, table: 'session_mark',
    ok: (fx) => ({ session_id: fx.chatId, message_id: fx.messageId, mark_type: 'accuracy', is_correct: false, question: 'Where is my order?', answer: 'Track it here' }),
    bad: (fx) => ({ session_id: fx.chatId, mark_type: 'accuracy', is_correct: 'maybe', question: 'x' }), badField: 'is_correct',
    audit: { action: 'create', resource: 'session_mark' },
    check: (d) => { if (!String(d.marked_by).includes('@')) throw new Error('marked_by not set'); },
  },
  {
    method: 'POST', path: 'session/mark/update', key: `${T}.text.session.mark.edit`, table: 'session_mark',
    ok: (fx) => ({ id: fx.markId, remark: 'checked' }), bad: (fx) => ({ id: fx.markId, session_id: 999999 }), badField: 'session_id',
    audit: { action: 'update', resource: 'session_mark' },
  },
  list('session/feedback/list', `${T}.text.session.feedback`, () => ({ handle_status: 0 })),
  detail('session/feedback/detail', `${T}.text.session.feedback`, (fx) => fx.feedbackId),
  {
    method: 'POST', path: 'session/feedback/handle', key: `${T}.text.session.feedback`, table: 'feedback',
    ok: (fx) => ({ id: fx.feedbackId, handle_status: 2, status: 'processed', annotation: 'policy fixed' }),
    bad: (fx) => ({ id: fx.feedbackId, handle_status: 7 }), badField: 'handle_status',
    audit: { action: 'handle', resource: 'feedback' },
    check: (d) => { if (d.handle_status !== 2 || !String(d.handler).includes('@')) throw new Error(JSON.stringify(d)); },
  },
  list('session-category/group/list', `${T}.text.shop.session_category`),
  list('session-category/item/list', `${T}.text.shop.session_category`, (fx) => ({ group_id: fx.groupId })),
  ...crud('session-category/group', `${T}.text.shop.session_category`, 'session_category_group', 'session_category_group',
    () => ({ name: 'Warranty', sort: 5 }), () => ({ name: '' }), 'name', (fx) => fx.groupId, { remark: 'r' }),
  ...crud('session-category/item', `${T}.text.shop.session_category`, 'session_category_item', 'session_category_item',
    (fx) => ({ group_id: fx.groupId, name: 'Extended warranty', keywords: 'warranty' }), (fx) => ({ group_id: fx.groupId, name: 'x'.repeat(101) }), 'name', (fx) => fx.itemId, { keywords: 'k' }),
  {
    method: 'POST', path: 'session-category/item/delete', key: `${T}.text.shop.session_category`, table: 'session_category_item',
    ok: (fx) => ({ id: fx.itemId }), bad: () => ({ id: 0 }), badField: 'id', audit: { action: 'delete', resource: 'session_category_item' },
  },
  // config center
  list('config/model-server/list', `${CC}.model_services_config`),
  ...crud('config/model-server', `${CC}.model_services_config`, 'config_model_server', 'config_model_server',
    () => ({ name: 'eu-gpt', provider: 'openai', model: 'gpt-4o', endpoint: 'https://eu.example.com/v1' }), () => ({ name: 'x', provider: 'p', model: 'm', endpoint: 'ftp://x' }), 'endpoint', (fx) => fx.serverId, { enabled: false }),
  list('config/fallback/list', `${CC}.fallback`, () => ({ channel: 'chat' })),
  ...crud('config/fallback', `${CC}.fallback`, 'config_fallback', 'config_fallback',
    (fx) => ({ shop_id: fx.shopId, channel: 'email', reply: 'We will reply soon.' }), () => ({ channel: 'fax', reply: 'x' }), 'channel', (fx) => fx.fallbackId, { reply: 'Updated' }),
  {
    method: 'POST', path: 'config/fallback/delete', key: `${CC}.fallback`, table: 'config_fallback',
    ok: (fx) => ({ id: fx.fallbackId }), bad: () => ({ id: 'x' }), badField: 'id', audit: { action: 'delete', resource: 'config_fallback' },
  },
  list('config/model-strategy/list', `${CC}.model_strategy`),
  ...crud('config/model-strategy', `${CC}.model_strategy`, 'config_model_strategy', 'config_model_strategy',
    (fx) => ({ name: 'low-temp', model_server_id: fx.serverId, temperature: 0.1, max_tokens: 512 }), (fx) => ({ name: 'x', model_server_id: fx.serverId, temperature: 3 }), 'temperature', (fx) => fx.strategyId, { max_tokens: 800 }),
  list('config/auto-learn/list', `${CC}.auto_learn`),
  ...crud('config/auto-learn', `${CC}.auto_learn`, 'config_auto_learn', 'config_auto_learn',
    () => ({ name: 'From training', source_type: 9, min_confidence: 0.7 }), () => ({ name: 'x', source_type: 99 }), 'source_type', (fx) => fx.autoLearnId, { interval_hours: 6 }),
  list('config/auto-learn-shop/list', `${CC}.auto_learn_shop`),
  ...crud('config/auto-learn-shop', `${CC}.auto_learn_shop`, 'config_auto_learn_shop', 'config_auto_learn_shop',
    (fx) => ({ shop_id: fx.freeShopId, learn_product: true }), () => ({ shop_id: 99999999 }), 'shop_id', (fx) => fx.autoLearnShopId, { learn_product: false }),
  list('config/divert/list', `${CC}.diver_data`),
  ...crud('config/divert', `${CC}.diver_data`, 'config_divert', 'config_divert',
    (fx) => ({ name: 'gpt 5%', model_strategy_id: fx.strategyId, percentage: 5 }), (fx) => ({ name: 'x', model_strategy_id: fx.strategyId, percentage: 101 }), 'percentage', (fx) => fx.divertId, { percentage: 20 }),
  // operations tools, prompts
  list('image-extraction/list', `${T}.text.operations_tools.image_extraction`),
  detail('image-extraction/detail', `${T}.text.operations_tools.image_extraction`, (fx) => fx.imageId),
  {
    method: 'POST', path: 'image-extraction/create', key: `${T}.text.operations_tools.image_extraction.add`, table: 'image_extraction',
    ok: (fx) => ({ shop_id: fx.shopId, title: 'Size chart', image_url: 'https://img.example.com/a.png' }),
    bad: (fx) => ({ shop_id: fx.shopId, title: 'x', image_url: 'not a url' }), badField: 'image_url', audit: { action: 'create', resource: 'image_extraction' },
  },
  {
    method: 'POST', path: 'image-extraction/update', key: `${T}.text.operations_tools.image_extraction`, table: 'image_extraction',
    ok: (fx) => ({ id: fx.imageId, extra_info: 'more' }), bad: (fx) => ({ id: fx.imageId, title: '' }), badField: 'title', audit: { action: 'update', resource: 'image_extraction' },
  },
  list('s3-file/list', `${T}.text.operations_tools.file_upload`),
  list('policy-import/list', `${T}.text.operations_tools.policy_import`),
  list('prompt/list', `${T}.text.learn.prompt_management`),
  list('prompt/list', `${T}.text.script_manage.playground`),
  ...crud('prompt', `${T}.text.learn.prompt_management`, 'prompt', 'prompt',
    () => ({ name: 'Short', content: 'Be brief. {{question}}' }), () => ({ name: '' }), 'name', (fx) => fx.promptId, { remark: 'r' }),
  {
    method: 'GET', path: 'session-area/shop-options', key: `${T}.admin.config_center.fallback`,
    ok: () => ({ limit: 5 }), bad: () => ({ limit: 0 }), badField: 'limit',
    check: (d) => { if (!Array.isArray(d) || !d.length || !String(d[0].label).includes('-')) throw new Error(JSON.stringify(d).slice(0, 200)); },
  },
  {
    method: 'GET', path: 'prompt/playground-options', key: `${T}.text.script_manage.playground`,
    ok: () => ({}), bad: () => ({ extra: 1 }), badField: 'extra',
    check: (d) => { if (!Array.isArray(d.assistants) || !Array.isArray(d.prompts) || !Array.isArray(d.model_servers) || !d.prompts.length) throw new Error(JSON.stringify(d).slice(0, 200)); },
  },
];
