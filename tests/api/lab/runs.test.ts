// @db both — scored runs as queue jobs
/**
 * Scored runs as work-engine jobs (issues 10 and 13): a rating task over a dataset runs by
 * itself question by question, answered by the AI engine (the built-in responder when no model
 * server is configured) and scored by the cascade; right expected answers score higher than
 * wrong ones; a scheduled task starts at its time (controlled clock); stop keeps the answers so
 * far; pause then resume answers no question twice; a judge model scores only where needed; two
 * runs of a dataset compare question by question. The model, where one is used, is a stand-in
 * HTTP server (outside the system under test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlledClock } from '../../../server/jobs/clock.js';
import { DEFAULT_JUDGE_PROMPT } from '../../../server/ai/scoring/judge.js';
import { RUN_SLICE } from '../../../server/resources/lab/run-job.js';
import { expectFieldError } from '../business/helpers.js';
import { startServer, type ApiClient, type TestServer } from '../harness.js';
import { until } from '../jobs/until.js';
import { startModelStandIn, type ModelStandIn } from './model-standin.js';

const POLICIES: Array<[string, string]> = [
  ['Returns', 'Unworn items can be returned within 30 days of delivery for a full refund.'],
  ['Shipping to Canada', 'We ship to Canada. Delivery to Canada takes 5 to 8 business days.'],
  ['Jacket warranty', 'Every jacket has a two-year warranty against manufacturing defects.'],
  ['Payment methods', 'We accept Visa, Mastercard, PayPal and Apple Pay at checkout.'],
  ['发票', '可以开具电子发票，请在订单详情页点击申请发票。'],
  ['退货政策', '未穿着的商品签收后七天内可以无理由退货。'],
];

const QUESTIONS = [
  'Can I return unworn items?',
  'How long does delivery to Canada take?',
  'Is there a warranty on the jacket?',
  'Which payment methods do you accept?',
  '可以开发票吗？',
  '商品可以退货吗？',
];
const RIGHT = [
  'Unworn items can be returned within 30 days of delivery for a full refund.',
  'Delivery to Canada takes 5 to 8 business days.',
  'Every jacket has a two-year warranty against manufacturing defects.',
  'We accept Visa, Mastercard, PayPal and Apple Pay at checkout.',
  '可以开具电子发票，请在订单详情页点击申请发票。',
  '未穿着的商品签收后七天内可以无理由退货。',
];
const WRONG = [
  'Our shop is closed on Sundays and public holidays.',
  'Gift cards never expire and can be topped up online.',
  'Please keep the original box for your records.',
  'Our newsletter comes out every Friday morning.',
  '我们的门店周一不营业，周二照常开门。',
  '会员积分可以在下次购物时抵扣现金。',
];

let s: TestServer;
let admin: ApiClient;
let shopId: number;
let model: ModelStandIn;
let slowServerId: number;
let judgeServerId: number;
const clock = new ControlledClock('2026-05-01T08:00:00Z');

beforeAll(async () => {
  s = await startServer({ clock });
  admin = await s.login();
  model = await startModelStandIn(120);
  await admin.ok('POST', 'exit-code/create', { code: 'resolved', description: 'answered', need_semantics_score: 1 });
  await admin.ok('POST', 'exit-code/create', { code: 'no_answer', description: 'nothing found', need_semantics_score: 0 });
  shopId = (await admin.ok('POST', 'shop/create', { name: 'Runs test shop', type: 1 })).id;
  for (const [title, content] of POLICIES) {
    await admin.ok('POST', 'shop/policy/create', { shop_id: shopId, title, content, source_type: 1, channel: 'chat', status: 1 });
  }
  slowServerId = (await admin.ok('POST', 'config/model-server/create', { name: 'Slow stand-in', model: 'answer-slow', endpoint: model.baseUrl, timeout_ms: 5000 })).id;
  judgeServerId = (await admin.ok('POST', 'config/model-server/create', { name: 'Judge stand-in', model: 'judge-1', endpoint: model.baseUrl, timeout_ms: 5000 })).id;
});

afterAll(async () => {
  await s?.close();
  await model?.close();
});

let seq = 0;
async function dataset(samples: Array<{ input: string; expected: string }>): Promise<number> {
  return (await admin.ok('POST', 'rating-data-set/create', { name: `Runs set ${++seq}`, samples })).id;
}
const pairs = (expected: string[]) => QUESTIONS.map((input, i) => ({ input, expected: expected[i] }));
const many = (n: number) => Array.from({ length: n }, (_, i) => ({ input: `${QUESTIONS[i % QUESTIONS.length]} (#${i + 1})`, expected: RIGHT[i % RIGHT.length] }));

async function task(datasetId: number, extra: Record<string, unknown> = {}) {
  return admin.ok('POST', 'rating-task/create', { name: `Run ${++seq}`, dataset_id: datasetId, prompt: 'Answer briefly.', shop_id: shopId, mode: 'immediate', ...extra });
}
const detail = (id: number) => admin.ok('GET', 'rating-task/detail', { id });
const results = async (id: number) => (await admin.ok('GET', 'rating-task/result/list', { task_id: id, page_size: 500 })).list as Array<Record<string, any>>;
const statusIs = (id: number, ...want: string[]) => until(() => detail(id), (t) => want.includes(t.status), 30_000);
async function rows(id: number): Promise<{ n: number; distinct: number }> {
  const r = await s.db.query<{ n: number; distinct: number }>(
    'SELECT count(*)::int AS n, count(DISTINCT sample_index)::int AS distinct FROM text_rating_task_result WHERE task_id = $1',
    [id],
  );
  return r.rows[0];
}
/** the run jobs of a task are all over (none queued or running) */
const runsOver = (id: number) =>
  until(
    async () => (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work_job WHERE ref_type = 'text_rating_task' AND ref_id = $1 AND state IN ('queued', 'running')`, [id])).rows[0].n,
    (n) => n === 0,
    20_000,
  );

describe('a run with no model server', () => {
  it('an immediate rating task finishes by itself with per-question results from the built-in responder', async () => {
    const t = await task(await dataset(pairs(RIGHT)));
    expect(t).toMatchObject({ status: 'running', total: 6, done: 0 });
    const done = await statusIs(t.id, 'finished');
    expect(done).toMatchObject({ done: 6, total: 6, progress: 100 });
    expect(done.finished_at).toBeTruthy();
    const list = await results(t.id);
    expect(list.map((r) => r.sample_index)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const r of list) {
      expect(r.responder).toBe('builtin');
      expect(r.output.length).toBeGreaterThan(0);
      expect(r.scores.length).toBeGreaterThan(0);
      for (const e of r.scores) expect(typeof e.reason).toBe('string');
      expect(typeof r.passed).toBe('boolean');
    }
    // the built-in responder cites the shop's policy it answered from
    expect(list.filter((r) => r.citations.length > 0).length).toBeGreaterThanOrEqual(5);
    expect(list.filter((r) => r.exit_code === 'resolved').length).toBeGreaterThanOrEqual(5);
    const job = await s.db.query<{ state: string; progress_done: number; progress_total: number }>(
      `SELECT state, progress_done, progress_total FROM work_job WHERE ref_type = 'text_rating_task' AND ref_id = $1 ORDER BY id DESC LIMIT 1`,
      [t.id],
    );
    expect(job.rows[0]).toMatchObject({ state: 'done', progress_done: 6, progress_total: 6 });
  });

  it('deliberately wrong expected answers score low, right ones higher', async () => {
    const right = await task(await dataset(pairs(RIGHT)));
    const wrong = await task(await dataset(pairs(WRONG)));
    const r = await statusIs(right.id, 'finished');
    const w = await statusIs(wrong.id, 'finished');
    expect(w.pass_rate).toBe(0);
    expect(w.avg_score).toBeLessThan(30);
    expect(r.pass_rate).toBeGreaterThanOrEqual(50);
    expect(r.avg_score).toBeGreaterThan(w.avg_score + 40);
    // no judge configured: similarity decides and the row says why the judge did not score
    const semantic = (await results(wrong.id)).filter((x) => x.scores.some((e: { scorer: string; score: number | null }) => e.scorer === 'similarity' && e.score !== null));
    expect(semantic.length).toBeGreaterThan(0);
    for (const x of semantic) expect(x.scores.at(-1)).toMatchObject({ scorer: 'judge', score: null, reason: 'no judge model configured / 未配置评判模型' });
  });

  it('two runs of one dataset compare question by question; runs of different datasets do not', async () => {
    const set = await dataset(pairs(RIGHT));
    const builtin = await task(set);
    await statusIs(builtin.id, 'finished');
    // the stand-in model answers every question with the same unrelated sentence
    const viaModel = await task(set, { model_server_id: slowServerId });
    await statusIs(viaModel.id, 'finished');
    const cmp = await admin.ok('GET', 'rating-task/compare', { a: builtin.id, b: viaModel.id, page_size: 50 });
    expect(cmp.summary.better).toBeGreaterThanOrEqual(4);
    expect(cmp.summary.worse).toBe(0);
    expect(cmp.total).toBe(6);
    const better = cmp.list.filter((x: { change: string }) => x.change === 'better');
    for (const x of better) expect(x.a_score).toBeGreaterThan(x.b_score);
    expect(cmp.list[0]).toMatchObject({ sample_index: 1, input: QUESTIONS[0], expected: RIGHT[0], b_output: "The stand-in model's answer." });
    // b defaults to the newest other run of the dataset; the filter keeps one kind of change
    const back = await admin.ok('GET', 'rating-task/compare', { a: viaModel.id, change: 'worse' });
    expect(back.b.id).toBe(builtin.id);
    expect(back.total).toBe(cmp.summary.better);
    expect(back.list.every((x: { change: string }) => x.change === 'worse')).toBe(true);
    const other = await task(await dataset(pairs(WRONG)), { mode: 'manual' });
    expectFieldError(await admin.get('rating-task/compare', { a: builtin.id, b: other.id }), 'b');
    // a run with nothing to compare with yet: an empty comparison
    expect(await admin.ok('GET', 'rating-task/compare', { a: other.id })).toMatchObject({ b: null, total: 0, list: [] });
  });
});

describe('scheduled start', () => {
  it('starts at scheduled_at on the engine clock, not before', async () => {
    const t = await task(await dataset(pairs(RIGHT)), { mode: 'schedule', scheduled_at: '2026-05-01T09:00:00Z' });
    expect(t.status).toBe('pending');
    await new Promise((r) => setTimeout(r, 4500)); // two ticks at 08:00
    expect((await detail(t.id)).status).toBe('pending');
    clock.set('2026-05-01T09:00:30Z');
    const started = await until(() => detail(t.id), (x) => x.status !== 'pending', 60_000);
    expect(['running', 'finished']).toContain(started.status);
    expect(new Date(started.started_at).getTime()).toBeGreaterThanOrEqual(Date.parse('2026-05-01T09:00:00Z'));
    expect(new Date(started.started_at).getTime()).toBeLessThan(Date.parse('2026-05-01T09:05:00Z'));
    expect((await statusIs(t.id, 'finished')).done).toBe(6);
  });
});

describe('stop, pause and resume', () => {
  it('stopping a run mid-way keeps the answers so far and answers no more', async () => {
    const t = await task(await dataset(many(40)), { model_server_id: slowServerId });
    await until(() => detail(t.id), (x) => x.done >= 3, 30_000);
    const stopped = await admin.ok('POST', 'rating-task/stop', { id: t.id });
    expect(stopped.status).toBe('stopped');
    await runsOver(t.id);
    const kept = await rows(t.id);
    expect(kept.n).toBeGreaterThanOrEqual(3);
    expect(kept.n).toBeLessThan(40);
    expect(kept.distinct).toBe(kept.n);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await rows(t.id)).toEqual(kept);
    const d = await detail(t.id);
    expect(d).toMatchObject({ status: 'stopped', done: kept.n });
    expect((await results(t.id)).every((r) => r.responder === 'model' && r.output === "The stand-in model's answer.")).toBe(true);
  });

  it('pause then resume continues where it stopped without answering any question twice', async () => {
    const calls0 = model.calls.length;
    const t = await task(await dataset(many(30)), { model_server_id: slowServerId });
    await until(() => detail(t.id), (x) => x.done >= 4, 30_000);
    expect((await admin.ok('POST', 'rating-task/pause', { id: t.id })).status).toBe('pausing');
    await runsOver(t.id);
    const paused = await rows(t.id);
    expect(paused.n).toBeLessThan(30);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await rows(t.id)).toEqual(paused);
    expect((await admin.ok('POST', 'rating-task/start', { id: t.id })).status).toBe('running');
    const fin = await statusIs(t.id, 'finished');
    expect(fin.done).toBe(30);
    expect(await rows(t.id)).toEqual({ n: 30, distinct: 30 });
    const idx = (await results(t.id)).map((r) => r.sample_index);
    expect(idx).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    // the model was asked each question once, plus at most the one in flight when paused
    const asked = model.calls.slice(calls0).filter((c) => c.model === 'answer-slow').length;
    expect(asked).toBeGreaterThanOrEqual(30);
    expect(asked).toBeLessThanOrEqual(31);
  });
});

describe('slices', () => {
  it('a run longer than a slice hands over to continuation jobs and still answers each question once', async () => {
    const before = RUN_SLICE.ms;
    RUN_SLICE.ms = 400; // the server runs in this process
    try {
      const t = await task(await dataset(many(20)), { model_server_id: slowServerId });
      expect((await statusIs(t.id, 'finished')).done).toBe(20);
      expect(await rows(t.id)).toEqual({ n: 20, distinct: 20 });
      const jobs = await s.db.query<{ state: string }>(`SELECT state FROM work_job WHERE ref_type = 'text_rating_task' AND ref_id = $1 ORDER BY id`, [t.id]);
      expect(jobs.rows.length).toBeGreaterThanOrEqual(3);
      expect(jobs.rows.every((j) => j.state === 'done')).toBe(true);
    } finally {
      RUN_SLICE.ms = before;
    }
  });
});

describe('the judge', () => {
  it('scores only answers that no cheap check passed, and its tokens are counted', async () => {
    // one expected answer the built-in answer contains (cheap pass), the others paraphrased
    const samples = [
      { input: QUESTIONS[0], expected: RIGHT[0] },
      { input: QUESTIONS[1], expected: 'It takes about a week, five to eight working days.' },
      { input: QUESTIONS[3], expected: 'Cards and PayPal are fine.' },
    ];
    const calls0 = model.calls.length;
    const t = await task(await dataset(samples), { judge_model_server_id: judgeServerId, pass_threshold: 0.7 });
    const fin = await statusIs(t.id, 'finished');
    const list = await results(t.id);
    const judged = list.filter((r) => r.scores.some((e: { scorer: string; score: number | null }) => e.scorer === 'judge' && e.score !== null));
    const cheap = list.filter((r) => r.scores.some((e: { scorer: string; passed: boolean }) => ['exact', 'contains'].includes(e.scorer) && e.passed));
    expect(cheap.length).toBeGreaterThanOrEqual(1);
    expect(judged.length + cheap.length).toBe(3);
    for (const r of judged) {
      expect(r.score).toBe(80);
      expect(r.passed).toBe(true);
      expect(r.judge_tokens).toBe(27);
      expect(r.scores.at(-1).reason).toContain('stand-in judge');
    }
    expect(model.calls.slice(calls0).filter((c) => c.model === 'judge-1').length).toBe(judged.length);
    expect(fin.judge_tokens).toBe(27 * judged.length);
    expect(fin.judge_model_server_name).toBe('Judge stand-in');
    // no judge prompt on the task: the default instruction is the one sent
    for (const c of model.calls.slice(calls0).filter((x) => x.model === 'judge-1')) expect(c.system).toBe(DEFAULT_JUDGE_PROMPT);
  });

  it("a rating task's own judge prompt is the one the judge model gets; too long a prompt is refused naming the field", async () => {
    const custom = 'Grade strictly: only the same numbers count. Reply with only {"score": 0..1, "reason": "..."} as JSON.';
    const samples = [{ input: QUESTIONS[1], expected: 'It takes about a week, five to eight working days.' }];
    const ds = await dataset(samples);
    const bad = await admin.post('rating-task/create', { name: 'Too long judge', dataset_id: ds, mode: 'manual', judge_prompt: 'x'.repeat(4001) });
    expectFieldError(bad, 'judge_prompt');
    const calls0 = model.calls.length;
    const t = await task(ds, { judge_model_server_id: judgeServerId, pass_threshold: 0.7, judge_prompt: custom });
    expect((await admin.ok('GET', 'rating-task/detail', { id: t.id })).judge_prompt).toBe(custom);
    await statusIs(t.id, 'finished');
    const judged = model.calls.slice(calls0).filter((c) => c.model === 'judge-1');
    expect(judged.length).toBe(1);
    expect(judged[0].system).toBe(custom);
    expect(judged[0].user).toContain('EXPECTED:\nIt takes about a week');
  });
});

describe('multi-turn samples', () => {
  it('a sample whose input is a conversation: the earlier turns go to the model as messages before the last question; a bad conversation is refused naming the field', async () => {
    const turns = [
      { role: 'user', content: 'Do you ship to Canada?' },
      { role: 'assistant', content: 'Yes, we ship to Canada.' },
      { role: 'user', content: 'How long does it take?' },
    ];
    const bad = await admin.post('rating-data-set/create', { name: 'Bad turns', samples: [{ input: [{ role: 'assistant', content: 'Hello' }], expected: 'x' }] });
    expectFieldError(bad, 'samples');
    const ds = (await admin.ok('POST', 'rating-data-set/create', { name: `Runs set ${++seq}`, samples_jsonl: JSON.stringify({ input: turns, expected: RIGHT[1] }) })).id;
    expect((await admin.ok('GET', 'rating-data-set/detail', { id: ds })).samples[0].input).toEqual(turns);
    const calls0 = model.calls.length;
    const t = await task(ds, { model_server_id: slowServerId });
    await statusIs(t.id, 'finished');
    const answered = model.calls.slice(calls0).filter((c) => c.model === 'answer-slow');
    expect(answered).toHaveLength(1);
    expect(answered[0].messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(answered[0].messages.slice(1).map((m) => m.content)).toEqual(turns.map((x) => x.content));
    // the result row reads as the conversation, one turn a line
    const [row] = await results(t.id);
    expect(row.input).toBe('user: Do you ship to Canada?\nassistant: Yes, we ship to Canada.\nuser: How long does it take?');
    expect(row.output).toBe("The stand-in model's answer.");
  });
});

describe('experiment (training) tasks', () => {
  it('an immediate one starts as a job, which pauses it and says no trainer is connected', async () => {
    const ds = await admin.ok('POST', 'lab/dataset/create', { name: 'Train set', data_type: 'qa', sample_count: 10 });
    const t = await admin.ok('POST', 'lab/train-task/create', { name: 'Exp', dataset_id: ds.id, base_model: 'qwen2.5-7b', mode: 'immediate' });
    expect(t.status).toBe('running');
    const paused = await until(() => admin.ok('GET', 'lab/train-task/detail', { id: t.id }), (x) => x.status !== 'running', 20_000);
    expect(paused.status).toBe('pausing');
    expect(paused.run_error).toContain('no trainer is connected');
    expect(paused.progress).toBe(0);
    const job = await s.db.query<{ state: string; result: { trained: boolean } }>(`SELECT state, result FROM work_job WHERE ref_type = 'lab_train_task' AND ref_id = $1`, [t.id]);
    expect(job.rows).toHaveLength(1);
    expect(job.rows[0]).toMatchObject({ state: 'done', result: { trained: false } });
  });
});

describe('a model call that fails is an error of its own, never a scored answer', () => {
  /** a model server nothing listens on: every call is refused at once */
  async function refusedServer(name: string): Promise<number> {
    const net = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    return (await admin.ok('POST', 'config/model-server/create', { name, model: 'gone-1', endpoint: `http://127.0.0.1:${port}/v1`, timeout_ms: 3000 })).id;
  }

  it('the built-in answer standing in for a failed model, and the fallback reply, are errors: not scored, not passed, counted apart from the fails', async () => {
    const broken = await refusedServer('Refused stand-in');
    // expected answers the stand-in texts would pass: the built-in answer contains RIGHT[0], the fallback reply is exact
    const fallbackText = 'A colleague will reply to you shortly.';
    const first = await task(await dataset([{ input: QUESTIONS[0], expected: RIGHT[0] }]), { model_server_id: broken });
    await statusIs(first.id, 'finished');
    const [a] = await results(first.id);
    expect(a).toMatchObject({ outcome: 'error', passed: false, score: null, responder: 'builtin', exit_code: null, scores: [], server_name: '' });
    expect(a.output).toContain(RIGHT[0]); // what the customer would have got is kept, not scored
    expect(a.error).toContain('the model call failed');
    expect(a.error).toContain('Refused stand-in');
    expect(a.decision).toMatch(/^Not scored: the model call failed/);
    expect(await detail(first.id)).toMatchObject({ passed: 0, errors: 1, done: 1, avg_score: null });

    const fb = await admin.ok('POST', 'config/fallback/create', { shop_id: shopId, channel: 'chat', reply: fallbackText });
    try {
      const second = await task(await dataset([{ input: QUESTIONS[1], expected: fallbackText }, { input: QUESTIONS[2], expected: RIGHT[2] }]), { model_server_id: broken });
      await statusIs(second.id, 'finished');
      const [b] = await results(second.id);
      expect(b).toMatchObject({ outcome: 'error', passed: false, score: null, output: fallbackText, model: 'fallback reply', exit_code: null, scores: [] });
      expect(b.error).toContain('the fallback reply was not scored');
      expect(b.error).toContain('Refused stand-in');
      expect(await detail(second.id)).toMatchObject({ passed: 0, errors: 2, done: 2 });
      // the error's trace says what happened
      const t = await admin.ok('GET', 'ai-trace/detail', { id: b.trace_id });
      expect(t).toMatchObject({ kind: 'run', ref_type: 'text_rating_task', ref_id: second.id, outcome: 'fallback', score: { outcome: 'error', score: null } });
      expect(t.attempts[0]).toMatchObject({ serverName: 'Refused stand-in', outcome: 'error' });
      // the result list filters by outcome
      const errs = await admin.ok('GET', 'rating-task/result/list', { task_id: second.id, outcome: 'error' });
      expect(errs.total).toBe(2);
    } finally {
      await admin.ok('POST', 'config/fallback/update', { id: fb.id, enabled: false });
    }
  });

  it("a run through the assistant's strategy whose first server fails records the fallback server that answered", async () => {
    const broken = await refusedServer('Refused primary');
    const fallback = (await admin.ok('POST', 'config/model-server/create', { name: 'Fallback stand-in', model: 'answer-fallback', endpoint: model.baseUrl, timeout_ms: 5000 })).id;
    const st = await admin.ok('POST', 'config/model-strategy/create', { name: 'Run strategy', shop_id: shopId, channel: 'chat', model_server_id: broken, fallback_server_id: fallback });
    try {
      const assistant = await admin.ok('POST', 'chat/assistant/create', { name: 'Strategy assistant', model: 'gpt-4o', prompt: 'Answer briefly.', shop_id: shopId, use_strategy: true });
      const t = await task(await dataset([{ input: QUESTIONS[0], expected: "The stand-in model's answer." }]), { assistant_id: assistant.id });
      await statusIs(t.id, 'finished');
      const [r] = await results(t.id);
      expect(r).toMatchObject({ outcome: 'pass', passed: true, responder: 'model', server_name: 'Fallback stand-in', model: 'answer-fallback' });
      expect(r.decision).toMatch(/^Exact match 1: the answer equals the expected answer/);
      const trace = await admin.ok('GET', 'ai-trace/detail', { id: r.trace_id });
      expect(trace).toMatchObject({ strategy_id: st.id, server_name: 'Fallback stand-in', score: { outcome: 'pass' } });
      expect(trace.attempts.map((a: { serverName: string; outcome: string }) => [a.serverName, a.outcome])).toEqual([
        ['Refused primary', 'error'],
        ['Fallback stand-in', 'ok'],
      ]);
      expect(await detail(t.id)).toMatchObject({ passed: 1, errors: 0 });
    } finally {
      await admin.ok('POST', 'config/model-strategy/update', { id: st.id, enabled: false });
    }
  });
});

describe('prompt versions', () => {
  it('every save is a version with its author; a version pinned by a run survives a later edit', async () => {
    const p = await admin.ok('POST', 'prompt/create', { name: 'Versioned prompt', content: 'VERSION ONE: answer from {{knowledge}} briefly.' });
    const v1 = (await admin.ok('GET', 'prompt/versions', { prompt_id: p.id })) as Array<Record<string, any>>;
    expect(v1).toHaveLength(1);
    expect(v1[0]).toMatchObject({ version: 1, content: 'VERSION ONE: answer from {{knowledge}} briefly.', author: 'admin@example.com', pinned_by: 0 });
    const question = `${QUESTIONS[1]} (pinned)`;
    const t = await task(await dataset([{ input: question, expected: RIGHT[1] }]), { prompt: '', prompt_version_id: v1[0].id, model_server_id: slowServerId, mode: 'manual' });
    expect((await detail(t.id)).prompt_version_id).toBe(v1[0].id);

    // the prompt is edited after the task pinned its first version
    await admin.ok('POST', 'prompt/update', { id: p.id, content: 'VERSION TWO: answer in one word.' });
    const both = (await admin.ok('GET', 'prompt/versions', { prompt_id: p.id })) as Array<Record<string, any>>;
    expect(both.map((v) => [v.version, v.content.slice(0, 11), v.pinned_by])).toEqual([
      [2, 'VERSION TWO', 0],
      [1, 'VERSION ONE', 1],
    ]);
    expect((await admin.ok('GET', 'prompt/detail', { id: p.id })).version).toBe(2);

    await admin.ok('POST', 'rating-task/start', { id: t.id });
    await statusIs(t.id, 'finished');
    const sent = model.calls.filter((c) => c.user === question || c.system.includes(question));
    expect(sent.length).toBeGreaterThan(0);
    for (const c of sent) {
      expect(c.system).toContain('VERSION ONE');
      expect(c.system).not.toContain('VERSION TWO');
    }

    // the two versions compared on the dataset: a run pinned to each, side by side with what each ran and cost
    const t2 = await task((await detail(t.id)).dataset_id, { prompt: '', prompt_version_id: both[0].id, model_server_id: slowServerId, mode: 'manual' });
    await admin.ok('POST', 'rating-task/start', { id: t2.id });
    await statusIs(t2.id, 'finished');
    const cmp = await admin.ok<any>('GET', 'rating-task/compare', { a: t2.id, b: t.id });
    expect(cmp.a).toMatchObject({ id: t2.id, prompt_version_label: 'Versioned prompt v2', errors: 0 });
    expect(cmp.b).toMatchObject({ id: t.id, prompt_version_label: 'Versioned prompt v1', errors: 0 });
    expect(typeof cmp.a.cost).toBe('number');
    expect(cmp.list).toHaveLength(1);
    expect(cmp.list[0]).toMatchObject({ input: question, a_cost: expect.any(Number), b_cost: expect.any(Number) });
  });

  it('two versions compared on a dataset as one action: a task pinned to each starts, the compare page shows both; bad input refused naming the field, nothing written', async () => {
    const p = await admin.ok('POST', 'prompt/create', { name: 'Compared prompt', content: 'FIRST: answer from {{knowledge}}.' });
    await admin.ok('POST', 'prompt/update', { id: p.id, content: 'SECOND: answer from {{knowledge}} in one word.' });
    const [v2, v1] = (await admin.ok('GET', 'prompt/versions', { prompt_id: p.id })) as Array<Record<string, any>>;
    const ds = await dataset([{ input: `${QUESTIONS[3]} (compared)`, expected: RIGHT[3] }]);
    const tasksBefore = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM text_rating_task')).rows[0].n;
    const body = { prompt_version_id: v2.id, other_version_id: v1.id, dataset_id: ds, model_server_id: slowServerId, shop_id: shopId };
    expectFieldError(await admin.post('rating-task/compare-versions', { ...body, other_version_id: v2.id }), 'other_version_id');
    expectFieldError(await admin.post('rating-task/compare-versions', { ...body, dataset_id: 999999 }), 'dataset_id');
    expectFieldError(await admin.post('rating-task/compare-versions', { ...body, prompt_version_id: 999999 }), 'prompt_version_id');
    expect((await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM text_rating_task')).rows[0].n).toBe(tasksBefore);

    const made = await admin.ok<{ a: number; b: number; path: string }>('POST', 'rating-task/compare-versions', body);
    expect(made.path).toBe(`/intelligent_text/scriptManage/ratingTaskList/detail/${made.a}`);
    expect(await detail(made.a)).toMatchObject({ prompt_version_id: v2.id, dataset_id: ds, model_server_id: slowServerId, shop_id: shopId, mode: 'immediate' });
    expect((await detail(made.b)).prompt_version_id).toBe(v1.id);
    const audits = await s.db.query('SELECT 1 FROM audit_logs WHERE resource = $1 AND action = $2 AND target_id IN ($3, $4)', ['text_rating_task', 'create', String(made.a), String(made.b)]);
    expect(audits.rows).toHaveLength(2);
    await statusIs(made.a, 'finished');
    await statusIs(made.b, 'finished');
    // the page's comparison: b by default is the newest other run of the dataset, the second task
    const cmp = await admin.ok<any>('GET', 'rating-task/compare', { a: made.a });
    expect(cmp.a).toMatchObject({ id: made.a, prompt_version_label: 'Compared prompt v2', done: 1 });
    expect(cmp.b).toMatchObject({ id: made.b, prompt_version_label: 'Compared prompt v1', done: 1 });
    expect(cmp.list).toHaveLength(1);
  });

  it('the line diff of two versions: newest against the one before by default, any two by number, an unknown one refused naming the field', async () => {
    const p = await admin.ok('POST', 'prompt/create', { name: 'Diffed prompt', content: 'Be polite.\nAnswer from {{knowledge}}.\nSign as Ann.' });
    await admin.ok('POST', 'prompt/update', { id: p.id, content: 'Be polite.\nAnswer from {{knowledge}} in one sentence.\nSign as Ann.\nNever guess.' });
    await admin.ok('POST', 'prompt/update', { id: p.id, content: 'Answer from {{knowledge}} in one sentence.' });
    const d = await admin.ok<any>('GET', 'prompt/version-diff', { prompt_id: p.id });
    expect(d).toMatchObject({ from: 2, to: 3, newest: 3, name: 'Diffed prompt', added: 0, removed: 3 });
    expect(d.list.map((l: any) => [l.op, l.old_no, l.new_no, l.text])).toEqual([
      ['removed', 1, null, 'Be polite.'],
      ['same', 2, 1, 'Answer from {{knowledge}} in one sentence.'],
      ['removed', 3, null, 'Sign as Ann.'],
      ['removed', 4, null, 'Never guess.'],
    ]);
    const first = await admin.ok<any>('GET', 'prompt/version-diff', { prompt_id: p.id, from: 1, to: 2 });
    expect(first.list.map((l: any) => l.op)).toEqual(['same', 'removed', 'added', 'same', 'added']);
    expect(first.list[2].text).toBe('Answer from {{knowledge}} in one sentence.');
    expectFieldError(await admin.get('prompt/version-diff', { prompt_id: p.id, from: 9 }), 'from');
  });
});

