/** Every lab / script-management route: how to call it right, wrong, and who may (see routes.test.ts). */
import type { LabEnv, LabFixtures } from './env.js';

const T = 'intelligent_text';
const P = 'panda_descendant';
type Payload = Record<string, unknown>;

export interface LabCase {
  method: 'GET' | 'POST';
  path: string;
  key: string;
  ok: (fx: LabFixtures, extra: Payload) => Payload;
  bad: (fx: LabFixtures, extra: Payload) => Payload;
  badField: string;
  table?: string;
  audit?: { action: string; resource: string };
  prepare?: (env: LabEnv) => Promise<Payload>;
}

const list = (path: string, key: string, extra: (fx: LabFixtures) => Payload = () => ({})): LabCase => ({
  method: 'GET', path, key, ok: (fx) => ({ page: 1, page_size: 5, ...extra(fx) }), bad: () => ({ page_size: 0 }), badField: 'page_size',
});
const detail = (path: string, key: string, id: (fx: LabFixtures, extra: Payload) => number, prepare?: LabCase['prepare']): LabCase => ({
  method: 'GET', path, key, ok: (fx, e) => ({ id: id(fx, e) }), bad: () => ({ id: 'abc' }), badField: 'id', prepare,
});
const made = (path: string, body: (fx: LabFixtures) => Payload, then?: string) => async (env: LabEnv): Promise<Payload> => {
  const row = await env.admin.ok('POST', path, body(env.fx));
  if (then) await env.admin.ok('POST', then, { id: row.id });
  return { id: row.id };
};
const idOf = (_fx: LabFixtures, e: Payload) => e.id as number;
const post = (path: string, key: string, table: string, resource: string, action: string, ok: LabCase['ok'], bad: LabCase['bad'], badField: string, prepare?: LabCase['prepare']): LabCase => ({
  method: 'POST', path, key, table, audit: { action, resource }, ok, bad, badField, prepare,
});

const samples = [{ input: 'Where is my order?', expected: 'It shipped yesterday.' }, { input: 'Can I return it?', expected: 'Yes, within 30 days.' }];
const testTaskBody = (fx: LabFixtures) => ({ name: 'API task', dataset_id: fx.dataSetId, assistant_id: fx.assistantId, mode: 'manual' });
const ratingTaskBody = (fx: LabFixtures) => ({ name: 'API rating task', dataset_id: fx.ratingDataSetId, prompt: 'Be polite.', mode: 'manual' });

function datasetCases(name: string, table: string, keys: { page: string; add: string; edit: string }): LabCase[] {
  const body = { name: 'API dataset', samples };
  return [
    list(`${name}/list`, keys.page),
    detail(`${name}/detail`, keys.edit, idOf, made(`${name}/create`, () => body)),
    post(`${name}/create`, keys.add, table, table, 'create', () => ({ name: 'Lines', sample_format: 'jsonl', samples_jsonl: '{"input":"a","expected":"b"}\n{"input":"c"}' }),
      () => ({ name: 'Lines', sample_format: 'jsonl', samples_jsonl: '{"input":"a"}\nnot json' }), 'samples_jsonl'),
    post(`${name}/update`, keys.edit, table, table, 'update', (_fx, e) => ({ id: e.id, name: 'Renamed', samples: [samples[0]] }),
      (_fx, e) => ({ id: e.id, samples: [{ input: '' }] }), 'samples.0.input', made(`${name}/create`, () => body)),
    post(`${name}/delete`, keys.edit, table, table, 'delete', (_fx, e) => ({ id: e.id }), () => ({ id: 0 }), 'id', made(`${name}/create`, () => body)),
  ];
}

function taskCases(name: string, table: string, k: { page: string; add: string; edit: string; detail: string; result: string }, body: (fx: LabFixtures) => Payload): LabCase[] {
  const create = made(`${name}/create`, body);
  const started = made(`${name}/create`, body, `${name}/start`);
  return [
    list(`${name}/list`, k.page, () => ({ status: 'finished' })),
    detail(`${name}/detail`, k.detail, idOf, create),
    post(`${name}/create`, k.add, table, table, 'create', body, (fx) => ({ ...body(fx), mode: 'schedule' }), 'scheduled_at'),
    post(`${name}/update`, k.edit, table, table, 'update', (_fx, e) => ({ id: e.id, name: 'Renamed task' }), (_fx, e) => ({ id: e.id, name: '' }), 'name', create),
    post(`${name}/delete`, k.edit, table, table, 'delete', (_fx, e) => ({ id: e.id }), () => ({ id: -1 }), 'id', create),
    post(`${name}/start`, k.edit, table, table, 'start', (_fx, e) => ({ id: e.id }), () => ({ id: 'x' }), 'id', create),
    post(`${name}/pause`, k.edit, table, table, 'pause', (_fx, e) => ({ id: e.id }), () => ({}), 'id', started),
    post(`${name}/stop`, k.edit, table, table, 'stop', (_fx, e) => ({ id: e.id }), () => ({ id: 1.5 }), 'id', started),
    { ...list(`${name}/result/list`, k.result, () => ({})), prepare: async (env) => ({ id: env.fx.finishedTaskId }), ok: (_fx, e) => ({ task_id: e.id, page: 1, page_size: 5 }), bad: () => ({ page: 1 }), badField: 'task_id' },
    { method: 'GET', path: `${name}/compare`, key: k.result, prepare: create, ok: (_fx, e) => ({ a: e.id }), bad: () => ({ a: 'x' }), badField: 'a' },
  ];
}

export const CASES: LabCase[] = [
  list('exit-code/list', `${T}.text.data_center.exit_code`),
  detail('exit-code/detail', `${T}.text.data_center.exit_code`, idOf, made('exit-code/create', () => ({ code: 'detail_case' }))),
  post('exit-code/create', `${T}.text.data_center.exit_code`, 'text_exit_code', 'text_exit_code', 'create', () => ({ code: 'api_new', need_semantics_score: 1 }), () => ({ code: 'resolved' }), 'code'),
  post('exit-code/update', `${T}.text.data_center.exit_code`, 'text_exit_code', 'text_exit_code', 'update', (_fx, e) => ({ id: e.id, need_semantics_score: 0 }),
    (_fx, e) => ({ id: e.id, need_semantics_score: 2 }), 'need_semantics_score', made('exit-code/create', () => ({ code: 'update_case', need_semantics_score: 1 }))),
  post('exit-code/delete', `${T}.text.data_center.exit_code`, 'text_exit_code', 'text_exit_code', 'delete', (_fx, e) => ({ id: e.id }), () => ({ id: 'x' }), 'id', made('exit-code/create', () => ({ code: 'delete_case' }))),
  ...datasetCases('data-set', 'text_dataset', { page: `${T}.text.data_center.data_set`, add: `${T}.text.data_center.data_set.add`, edit: `${T}.text.data_center.data_set.edit` }),
  ...datasetCases('rating-data-set', 'text_rating_dataset', { page: `${T}.text.data_center.rating_data_set`, add: `${T}.text.data_center.rating_data_set.add`, edit: `${T}.text.data_center.rating_data_set.edit` }),
  ...taskCases('script-task', 'text_task', {
    page: `${T}.text.script_manage.task_list`, add: `${T}.text.script_manage.task_list.add`, edit: `${T}.text.script_manage.task_list.edit`,
    detail: `${T}.text.script_manage.task_list.detail`, result: `${T}.text.script_manage.task_list.result`,
  }, testTaskBody),
  ...taskCases('rating-task', 'text_rating_task', {
    page: `${T}.text.script_manage.rating_task_list`, add: `${T}.text.script_manage.rating_task_list.add`, edit: `${T}.text.script_manage.rating_task_list.edit`,
    detail: `${T}.text.script_manage.rating_task_list.detail`, result: `${T}.text.script_manage.rating_task_list.result`,
  }, ratingTaskBody),
  { method: 'GET', path: 'script-task/assistant-options', key: `${T}.text.script_manage.rating_task_list.add`, ok: () => ({}), bad: () => ({ x: 1 }), badField: 'x' },
  { method: 'GET', path: 'script-task/model-server-options', key: `${T}.text.script_manage.task_list.edit`, ok: () => ({}), bad: () => ({ x: 1 }), badField: 'x' },
  { method: 'GET', path: 'script-task/shop-options', key: `${T}.text.script_manage.rating_task_list.add`, ok: () => ({ limit: 5 }), bad: () => ({ limit: 0 }), badField: 'limit' },
  // lab
  list('lab/dataset/list', `${P}.lab.train.dataset`, () => ({ data_type: 'qa' })),
  detail('lab/dataset/detail', `${P}.lab.train.dataset.update`, (fx) => fx.labDatasetId),
  post('lab/dataset/create', `${P}.lab.train.dataset.add`, 'lab_dataset', 'lab_dataset', 'create', () => ({ name: 'New set', data_type: 'qa', sample_count: 10 }), () => ({ name: 'New set', data_type: 'video' }), 'data_type'),
  post('lab/dataset/update', `${P}.lab.train.dataset.update`, 'lab_dataset', 'lab_dataset', 'update', (fx) => ({ id: fx.labDatasetId, description: 'changed' }), (fx) => ({ id: fx.labDatasetId, source_url: 'ftp://x' }), 'source_url'),
  post('lab/dataset/delete', `${P}.lab.train.dataset.update`, 'lab_dataset', 'lab_dataset', 'delete', (_fx, e) => ({ id: e.id }), () => ({ id: 'x' }), 'id', made('lab/dataset/create', () => ({ name: 'Tmp', data_type: 'qa' }))),
  ...(() => {
    const body = (fx: LabFixtures) => ({ name: 'Exp', dataset_id: fx.labDatasetId, base_model: 'qwen2.5-7b', epochs: 2, learning_rate: 0.0001 });
    const create = made('lab/train-task/create', body);
    const started = made('lab/train-task/create', body, 'lab/train-task/start');
    const K = `${P}.lab.train.task`;
    return [
      list('lab/train-task/list', K, () => ({ status: 'running' })),
      detail('lab/train-task/detail', `${K}.detail`, idOf, create),
      post('lab/train-task/create', `${K}.add`, 'lab_train_task', 'lab_train_task', 'create', body, (fx) => ({ ...body(fx), epochs: 0 }), 'epochs'),
      post('lab/train-task/update', `${K}.edit`, 'lab_train_task', 'lab_train_task', 'update', (_fx, e) => ({ id: e.id, epochs: 4 }), (_fx, e) => ({ id: e.id, dataset_id: 999999 }), 'dataset_id', create),
      post('lab/train-task/delete', `${K}.edit`, 'lab_train_task', 'lab_train_task', 'delete', (_fx, e) => ({ id: e.id }), () => ({ id: 'x' }), 'id', create),
      post('lab/train-task/start', `${K}.edit`, 'lab_train_task', 'lab_train_task', 'start', (_fx, e) => ({ id: e.id }), () => ({}), 'id', create),
      post('lab/train-task/pause', `${K}.edit`, 'lab_train_task', 'lab_train_task', 'pause', (_fx, e) => ({ id: e.id }), () => ({}), 'id', started),
      post('lab/train-task/stop', `${K}.edit`, 'lab_train_task', 'lab_train_task', 'stop', (_fx, e) => ({ id: e.id }), () => ({}), 'id', started),
    ];
  })(),
  list('lab/content/list', `${P}.lab.text.content`, () => ({ scene: 'presale' })),
  detail('lab/content/detail', `${P}.lab.text.content.detail`, (fx) => fx.conversationId),
  post('lab/content/create', `${P}.lab.text.content.add`, 'lab_conversation', 'lab_conversation', 'create',
    () => ({ title: 'Hello', scene: 'presale', messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }] }),
    () => ({ title: 'Hello', scene: 'presale', messages: [] }), 'messages'),
  post('lab/content/update', `${P}.lab.text.content.update`, 'lab_conversation', 'lab_conversation', 'update', (fx) => ({ id: fx.conversationId, status: 0 }), (fx) => ({ id: fx.conversationId, scene: 'x' }), 'scene'),
  post('lab/content/delete', `${P}.lab.text.content.update`, 'lab_conversation', 'lab_conversation', 'delete', (_fx, e) => ({ id: e.id }), () => ({ id: 'x' }), 'id',
    made('lab/content/create', () => ({ title: 'Tmp', scene: 'chitchat', messages: [{ role: 'user', content: 'x' }] }))),
  list('lab/comment/list', `${P}.lab.text.comment`, () => ({ status: 1 })),
  detail('lab/comment/detail', `${P}.lab.text.comment`, idOf, made('lab/comment/create', (fx) => ({ conversation_id: fx.conversationId, author: 'A', content: 'c' }))),
  post('lab/comment/create', `${P}.lab.text.comment`, 'lab_comment', 'lab_comment', 'create', (fx) => ({ conversation_id: fx.conversationId, author: 'Tester', content: 'Nice', rating: 5 }),
    (fx) => ({ conversation_id: fx.conversationId, author: 'Tester', content: 'Nice', rating: 6 }), 'rating'),
  post('lab/comment/update', `${P}.lab.text.comment`, 'lab_comment', 'lab_comment', 'update', (_fx, e) => ({ id: e.id, status: 0 }), (_fx, e) => ({ id: e.id, status: 7 }), 'status',
    made('lab/comment/create', (fx) => ({ conversation_id: fx.conversationId, author: 'A', content: 'c' }))),
  post('lab/comment/delete', `${P}.lab.text.comment`, 'lab_comment', 'lab_comment', 'delete', (_fx, e) => ({ id: e.id }), () => ({ id: 'x' }), 'id',
    made('lab/comment/create', (fx) => ({ conversation_id: fx.conversationId, author: 'A', content: 'c' }))),
  list('lab/role/list', `${P}.lab.account.role`),
  { method: 'GET', path: 'lab/role/all', key: `${P}.lab.account.user`, ok: () => ({}), bad: () => ({ page: 1 }), badField: 'page' },
  detail('lab/role/detail', `${P}.lab.account.role`, (fx) => fx.labRoleId),
  post('lab/role/create', `${P}.lab.account.role`, 'lab_role', 'lab_role', 'create', () => ({ name: 'Reviewer', scopes: ['comment'] }), () => ({ name: 'Reviewer', scopes: ['root'] }), 'scopes.0'),
  post('lab/role/update', `${P}.lab.account.role`, 'lab_role', 'lab_role', 'update', (_fx, e) => ({ id: e.id, description: 'd' }), (_fx, e) => ({ id: e.id, name: '' }), 'name', made('lab/role/create', () => ({ name: 'Upd role' }))),
  post('lab/role/delete', `${P}.lab.account.role`, 'lab_role', 'lab_role', 'delete', (_fx, e) => ({ id: e.id }), () => ({ id: 'x' }), 'id', made('lab/role/create', () => ({ name: 'Del role' }))),
  list('lab/user/list', `${P}.lab.account.user`, (fx) => ({ role_id: fx.labRoleId })),
  detail('lab/user/detail', `${P}.lab.account.user`, idOf, made('lab/user/create', () => ({ name: 'D', email: 'detail.case@example.com' }))),
  post('lab/user/create', `${P}.lab.account.user`, 'lab_user', 'lab_user', 'create', (fx) => ({ name: 'New', email: 'new.lab@example.com', role_id: fx.labRoleId }), () => ({ name: 'New', email: 'nope' }), 'email'),
  post('lab/user/update', `${P}.lab.account.user`, 'lab_user', 'lab_user', 'update', (_fx, e) => ({ id: e.id, status: 0 }), (_fx, e) => ({ id: e.id, role_id: 999999 }), 'role_id',
    made('lab/user/create', () => ({ name: 'U', email: 'update.case@example.com' }))),
  post('lab/user/delete', `${P}.lab.account.user`, 'lab_user', 'lab_user', 'delete', (_fx, e) => ({ id: e.id }), () => ({ id: 'x' }), 'id', made('lab/user/create', () => ({ name: 'X', email: 'delete.case@example.com' }))),
];
