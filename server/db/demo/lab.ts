/**
 * Demo data of the lab and script-management areas (docs/modules/lab.md): exit codes, test and
 * rating datasets, tasks in every status with their per-sample results, lab datasets and
 * experiment tasks, AI conversations with comments, lab roles and users. Deterministic and
 * idempotent: does nothing when exit codes already exist.
 *
 * The results are real: each answered sample went through the same answering step and scoring
 * cascade as a run (run-job.ts `evaluateSample`) against the demo shop's knowledge. Demo tasks
 * left `running` have no run job; the scheduled-start ticker gives them one, so they finish by
 * themselves once the server runs.
 */
import type { Db, Queryable } from '../db.js';
import { evaluateSample, refreshCounters, RESULT_COLUMNS, setupOf, type ResultValues } from '../../resources/lab/run-job.js';
import type { Sample } from '../../resources/lab/samples.js';
import { insertMany, insertRows } from './insert.js';
import { Rng, daysAgo } from './random.js';

const EXIT_CODES: Array<[string, string, number]> = [
  ['resolved', 'Question answered in the conversation', 1],
  ['transfer_human', 'Handed over to a human agent', 0],
  ['order_query', 'Answered with order data', 1],
  ['refund_flow', 'Entered the refund flow', 1],
  ['no_answer', 'No answer found in the knowledge', 0],
  ['sensitive', 'Stopped on a sensitive word', 0],
];

const QUESTIONS: Array<[string, string]> = [
  ['Where is my order?', 'Your order has shipped; the tracking number is in your email.'],
  ['Can I return these shoes?', 'Yes, unworn items can be returned within 30 days.'],
  ['Do you ship to Canada?', 'Yes, we ship to Canada in 5 to 8 business days.'],
  ['How do I change my address?', 'Reply with the new address before the order ships and we will update it.'],
  ['Is this jacket waterproof?', 'Yes, the jacket is waterproof with sealed seams.'],
  ['When will the blue size M be back?', 'Size M in blue is expected back in stock in two weeks.'],
  ['I was charged twice', 'Sorry about that; the duplicate charge will be refunded within 5 days.'],
  ['Do you have a discount code?', 'Sign up for the newsletter to get 10% off your first order.'],
  ['How long does a refund take?', 'Refunds reach your card within 5 to 10 business days.'],
  ['我的快递到哪了？', '您的订单已发货，物流单号已发送到您的邮箱。'],
  ['可以开发票吗？', '可以，请在订单详情页申请电子发票。'],
  ['这款衣服起球吗？', '这款面料经过抗起球处理，正常穿着不易起球。'],
];

const DATASET_NAMES = ['Pre-sale FAQ', 'After-sale regression', 'Logistics questions', 'Bilingual smoke test', '售后话术回归', 'Holiday campaign'];
const RATING_NAMES = ['Answer quality gold set', 'Politeness rating', 'Refund policy accuracy', '中文回复评分集'];
const TASK_NAMES = ['Nightly regression', 'Prompt v2 vs v1', 'New assistant check', 'Holiday prompt', 'Refund wording', 'Short answers', '多语言测试', 'Model switch trial'];
const STATUSES = ['pending', 'running', 'finished', 'stopped', 'pausing', 'finished', 'running', 'pending', 'finished', 'pausing'] as const;
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet', 'qwen-max', 'doubao-pro'];

/** A task whose first `done` samples get results after the structure is in (see seedResults). */
interface Planned {
  kind: 'text' | 'text_rating';
  taskId: number;
  shopId: number | null;
  samples: Sample[];
  done: number;
  at: Date | null;
}

function samplesFor(rng: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  const offset = rng.int(0, QUESTIONS.length - 1);
  for (let i = 0; i < n; i++) {
    const [input, expected] = QUESTIONS[(offset + i) % QUESTIONS.length];
    out.push({ input: i < QUESTIONS.length ? input : `${input} (#${i + 1})`, expected });
  }
  return out;
}

/**
 * A gold set from the demo shop's own chat policies: a question about each policy's title, the
 * policy's first sentence as the expected answer (the generic QUESTIONS mostly ask what a demo
 * shop's knowledge does not cover, which is worth seeing too).
 */
async function shopSamples(q: Queryable, shopId: number | null): Promise<Sample[]> {
  if (shopId === null) return [];
  const r = await q.query<{ title: string; content: string }>(
    `SELECT title, content FROM policy WHERE shop_id = $1 AND status = 1 AND channel = 'chat' ORDER BY id LIMIT 24`,
    [shopId],
  );
  return r.rows.map(({ title, content }) => {
    const zh = /\p{Script=Han}/u.test(title);
    const first = /^.+?[。！？.!?](?=\s|$)/su.exec(content.trim())?.[0] ?? content.trim();
    return { input: zh ? `${title}是怎样的？` : `Can you tell me about ${title.toLowerCase()}?`, expected: first.slice(0, 4000) };
  });
}

async function seedScriptArea(q: Queryable, rng: Rng, kind: 'text' | 'text_rating', names: string[], assistants: number[], shops: number[], plan: Planned[]) {
  const datasets: Array<{ id: number; samples: Sample[] }> = [];
  const gold = await shopSamples(q, shops[0] ?? null);
  for (const [n, name] of names.entries()) {
    const generic = samplesFor(rng, rng.int(8, 24));
    // the first dataset of each area is the demo shop's gold set (when its knowledge has enough)
    const samples = n === 0 && gold.length >= 3 ? gold : generic;
    const [id] = await insertMany(q, `${kind}_dataset`, ['name', 'description', 'samples', 'sample_count', 'created_at'], [
      [name, `${name} — demo samples`, JSON.stringify(samples), samples.length, daysAgo(rng, 120, 30)],
    ]);
    datasets.push({ id, samples });
  }
  for (let i = 0; i < 10; i++) {
    const ds = rng.pick(datasets);
    const status = STATUSES[i];
    const total = ds.samples.length;
    const done = status === 'finished' ? total : status === 'pending' ? 0 : rng.int(1, total - 1);
    const created = daysAgo(rng, 30, 1);
    const started = status === 'pending' ? null : new Date(created.getTime() + 3600000);
    const finished = status === 'finished' || status === 'stopped' ? new Date(created.getTime() + 7200000) : null;
    const assistant = assistants.length && rng.chance(0.6) ? rng.pick(assistants) : null;
    const picked = rng.pick(['manual', 'immediate', 'schedule'] as const);
    // a pending scheduled task would start at once (its demo time is past): pending ones wait for a person
    const mode = status === 'pending' && picked === 'schedule' ? 'manual' : picked;
    const pickedShop = shops.length ? rng.pick(shops) : null;
    // tasks over the gold set ask the shop it was written from
    const shopId = ds === datasets[0] && shops.length ? shops[0] : pickedShop;
    const [taskId] = await insertMany(q, `${kind}_task`, ['name', 'dataset_id', 'assistant_id', 'shop_id', 'prompt', 'model', 'mode', 'scheduled_at', 'status', 'total', 'done', 'started_at', 'finished_at', 'created_at'], [
      [`${TASK_NAMES[i % TASK_NAMES.length]}${i >= TASK_NAMES.length ? ' 2' : ''}`, ds.id, assistant, shopId,
        assistant ? '' : 'You are a friendly customer-service agent. Answer briefly and politely.',
        // tasks made before model servers named a model; newer ones answer with the built-in responder
        i % 3 === 0 ? rng.pick(MODELS) : '', mode, mode === 'schedule' ? new Date(created.getTime() + 86400000) : null,
        status, total, 0, started, finished, created],
    ]);
    if (done > 0) plan.push({ kind, taskId, shopId, samples: ds.samples, done, at: started });
  }
}

/** Answers and scores the planned samples (one transaction per task; answers reused per shop and question). */
async function seedResults(db: Db, plan: Planned[]) {
  const cache = new Map<string, ResultValues>();
  for (const p of plan) {
    const setup = await setupOf(db, { shop_id: p.shopId, assistant_id: null, prompt: '', model_server_id: null, judge_model_server_id: null, pass_threshold: 0.5 });
    const rows: unknown[][] = [];
    for (let j = 0; j < p.done; j++) {
      const key = `${p.shopId}|${p.samples[j].input}|${p.samples[j].expected}`;
      let values = cache.get(key);
      if (!values) cache.set(key, (values = await evaluateSample(db, setup, p.samples[j])));
      rows.push([p.taskId, j + 1, ...values, p.at]);
    }
    await db.tx(async (q) => {
      await insertRows(q, `${p.kind}_task_result`, ['task_id', 'sample_index', ...RESULT_COLUMNS.split(', '), 'created_at'], rows);
      await refreshCounters(q, `${p.kind}_task`, p.taskId);
    });
  }
}

async function seedLabTrain(q: Queryable, rng: Rng) {
  const types = ['dialogue', 'qa', 'classification', 'preference'];
  const names = ['Customer dialogues 2026Q3', 'FAQ pairs', 'Intent labels', 'Reply preference pairs', '售后对话语料', 'Email replies'];
  // the sandbox trainer (server/ai/finetune/sandbox.ts): trains nothing, so a newcomer sees a run progress;
  // off for answering (no chat goes to it), chosen by the demo tasks as their trainer
  const [sandbox] = await insertMany(q, 'config_model_server', ['name', 'provider', 'endpoint', 'model', 'enabled', 'supports_fine_tuning', 'remark'], [
    ['Sandbox trainer / 沙箱训练服务', 'sandbox', 'https://trainer.sandbox.invalid/v1', 'sandbox', false, true, 'built-in emulator of the fine-tuning API: trains nothing / 内置微调接口模拟器：不做真实训练'],
  ]);
  // the examples a run uploads; the sample count is theirs (the random draw is kept: the rest of the demo stays as it was)
  const examples = JSON.stringify(QUESTIONS.map(([u, a]) => ({ messages: [{ role: 'user', content: u }, { role: 'assistant', content: a }] })));
  const ids = await insertMany(q, 'lab_dataset', ['name', 'data_type', 'description', 'source_url', 'sample_count', 'created_at', 'examples'],
    names.map((n, i) => [n, types[i % types.length], `${n} for fine-tuning experiments`, `https://data.example.com/lab/${i + 1}.jsonl`, (rng.int(500, 50000), QUESTIONS.length), daysAgo(rng, 200, 30), examples]));
  const models = ['qwen2.5-7b', 'llama-3.1-8b', 'glm-4-9b', 'mistral-7b'];
  await insertMany(q, 'lab_train_task', ['name', 'dataset_id', 'base_model', 'epochs', 'learning_rate', 'mode', 'status', 'progress', 'remark', 'started_at', 'finished_at', 'created_at', 'trainer_server_id'],
    STATUSES.map((status, i) => {
      const created = daysAgo(rng, 40, 1);
      return [`Experiment ${String(i + 1).padStart(2, '0')} ${rng.pick(['LoRA', 'full', 'DPO'])}`, rng.pick(ids), rng.pick(models), rng.int(1, 5), rng.pick([0.0001, 0.00005, 0.0002]),
        rng.pick(['manual', 'immediate']), status, status === 'finished' ? 100 : status === 'pending' ? 0 : rng.int(5, 95), '',
        status === 'pending' ? null : new Date(created.getTime() + 600000), status === 'finished' || status === 'stopped' ? new Date(created.getTime() + 36000000) : null, created, sandbox];
    }));
}

async function seedLabContent(q: Queryable, rng: Rng) {
  const scenes = ['presale', 'aftersale', 'logistics', 'chitchat'];
  const convIds = await insertMany(q, 'lab_conversation', ['title', 'scene', 'model', 'messages', 'status', 'created_at'],
    Array.from({ length: 24 }, (_, i) => {
      const turns = rng.int(1, 4);
      const messages: Array<{ role: string; content: string }> = [];
      for (let t = 0; t < turns; t++) {
        const [qq, a] = rng.pick(QUESTIONS);
        messages.push({ role: 'user', content: qq }, { role: 'assistant', content: a });
      }
      return [`${messages[0].content.slice(0, 40)} #${i + 1}`, rng.pick(scenes), rng.pick(MODELS), JSON.stringify(messages), rng.chance(0.85) ? 1 : 0, daysAgo(rng, 60)];
    }));
  const authors = ['Lina', 'Marco', 'Sato', '王芳', '李雷', 'Ava', 'Noah'];
  const texts = ['The answer was accurate and quick.', 'Too long, could be shorter.', 'Wrong tracking link.', '回答很礼貌。', 'Missed the refund window detail.', 'Great tone!'];
  await insertRows(q, 'lab_comment', ['conversation_id', 'author', 'content', 'rating', 'status', 'created_at'],
    Array.from({ length: 60 }, () => [rng.pick(convIds), rng.pick(authors), rng.pick(texts), rng.int(1, 5), rng.chance(0.8) ? 1 : 0, daysAgo(rng, 30)]));
}

async function seedLabAccounts(q: Queryable, rng: Rng) {
  const roles = await insertMany(q, 'lab_role', ['name', 'description', 'scopes', 'status'], [
    ['Lab admin', 'Everything in the lab', ['train', 'dataset', 'content', 'comment', 'admin'], 1],
    ['Researcher', 'Runs experiments and manages datasets', ['train', 'dataset'], 1],
    ['Annotator', 'Reviews conversations and comments', ['content', 'comment'], 1],
    ['Guest', 'Read-only visitor (disabled)', [], 0],
  ]);
  const people = ['Alice Chen', 'Bruno Silva', 'Chloe Martin', 'David Kim', 'Elena Rossi', '张伟', '刘洋', 'Farah Khan', 'George Brown', 'Hana Sato', 'Ivan Petrov', '陈静'];
  await insertRows(q, 'lab_user', ['name', 'email', 'role_id', 'status', 'created_at'],
    people.map((n, i) => [n, `lab.user${i + 1}@example.com`, roles[i % roles.length], rng.chance(0.9) ? 1 : 0, daysAgo(rng, 300)]));
}

export async function seedLab(db: Db): Promise<void> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM (SELECT 1 FROM text_exit_code LIMIT 1) x');
  if (r.rows[0].n > 0) return;
  const rng = new Rng(20261205);
  const plan: Planned[] = [];
  await db.tx(async (q) => {
    await insertRows(q, 'text_exit_code', ['code', 'description', 'need_semantics_score'], EXIT_CODES);
    const assistants = (await q.query<{ id: number }>('SELECT id FROM chat_assistant ORDER BY id LIMIT 20')).rows.map((x) => x.id);
    // the shops with the most chat knowledge first (the first one's policies make the gold sets)
    const shops = (
      await q.query<{ id: number }>(
        `SELECT shop_id AS id FROM policy WHERE status = 1 AND channel = 'chat' GROUP BY shop_id ORDER BY count(*) DESC, shop_id LIMIT 5`,
      )
    ).rows.map((x) => Number(x.id));
    await seedScriptArea(q, rng, 'text', DATASET_NAMES, assistants, shops, plan);
    await seedScriptArea(q, rng, 'text_rating', RATING_NAMES, assistants, shops, plan);
    await seedLabTrain(q, rng);
    await seedLabContent(q, rng);
    await seedLabAccounts(q, rng);
  });
  await seedResults(db, plan);
}
