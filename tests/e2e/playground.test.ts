/**
 * The prompt playground in Chromium against the real server with the demo data and a small
 * OpenAI-compatible server started here (tests/api/ai/fake-openai.ts, words sent 300 ms apart):
 * a question streams the model's answer into the page piece by piece, with the knowledge it
 * retrieved; compare debug puts the model and the built-in responder side by side and shows the
 * difference in their knowledge; an answer shows its cost (the server's prices per million tokens)
 * and opens its trace: retrieval with scores, the prompt sent, the model call with its cost, the completion.
 * Run: node --import tsx --test tests/e2e/playground.test.ts   (screenshots in /tmp/shots)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from '../api/ai/fake-openai.js';
import { api, openAdminPage, settle, waitList } from './admin-helpers.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let page: Page;
let fake: FakeOpenAI;
let policy: { id: number; title: string; shop_id: number };
const pageErrors: string[] = [];

before(async () => {
  fake = await startFakeOpenAI({ wordDelayMs: 300 });
  h = await startHarness();
  page = await h.newPage();
  page.setDefaultTimeout(60_000);
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await h.signIn(page, h.admin);
  const sid = (await page.context().cookies()).find((c) => c.name === 'sid')?.value ?? '';
  const res = await page.request.post('/api/admin/config/model-server/create', {
    headers: { 'admin-token': sid },
    data: { name: 'E2E stand-in', model: 'ok-e2e', endpoint: fake.baseUrl, timeout_ms: 10000, price_input: 2, price_output: 10 },
  });
  assert.equal((await res.json()).code, 10000);
  const found = await api<{ list: Array<{ id: number; title: string; shop_id: number }> }>(page, 'shop/policy/list', { keyword: 'return', status: 1, channel: 'chat', page_size: 20 });
  assert.ok(found.list.length, 'the demo data has a return policy');
  policy = found.list[0];
});

after(async () => {
  await page?.context().close();
  await h?.close();
  await fake?.close();
});

/** Opens the select of a test id and takes the option whose label contains `text`. */
async function choose(testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
  await page.locator('.ant-select-dropdown:visible').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
}

async function ask(question: string): Promise<void> {
  await page.getByTestId('playground-message').fill(question);
  await page.getByTestId('playground-send').click();
}

describe('prompt playground', () => {
  it('streams the model answer into the page, with the knowledge it retrieved, tokens and latency', async () => {
    await openAdminPage(page, '/intelligent_text/scriptManage/playground');
    await page.getByTestId('prompt-playground').waitFor();
    await page.waitForLoadState('networkidle');
    await choose('playground-shop', String(policy.shop_id));
    await choose('playground-model-a', 'E2E stand-in');
    // every text the answer shows while it streams, recorded by the page itself (a poll from
    // here could miss a short stream on a busy machine)
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __partials: string[] }).__partials = seen;
      new MutationObserver(() => {
        const el = document.querySelector('[data-testid="playground-answer-a"]');
        if (el?.getAttribute('data-status') === 'streaming') seen.push(el.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await ask(`${policy.title}?`);
    const answer = page.getByTestId('playground-answer-a');
    await page.locator('[data-testid="playground-answer-a"][data-status="done"]').waitFor({ timeout: 30_000 });
    assert.equal(await answer.innerText(), 'answer from e2e');
    // part of the answer was on the page while the rest was still coming
    const partials = await page.evaluate(() => (window as unknown as { __partials: string[] }).__partials);
    assert.ok(partials.some((t) => t.startsWith('answer') && t !== 'answer from e2e'), `texts while streaming: ${JSON.stringify(partials)}`);
    const meta = await page.getByTestId('playground-meta-a').innerText();
    assert.match(meta, /ok-e2e/);
    assert.match(meta, /11/); // prompt tokens reported by the server
    const cited = await page.getByTestId('playground-citations-a').innerText();
    assert.ok(cited.includes(policy.title), `cited: ${cited}`);
    // the model got the retrieved knowledge in its prompt
    assert.ok(JSON.stringify(fake.requests.at(-1)!.body.messages).includes(policy.title));
    await settle(page);
    await h.shot(page, 'playground-stream');
  });

  it('compare debug: the model and the built-in responder answer side by side, with the knowledge difference', async () => {
    await page.getByTestId('playground-compare').click();
    await page.getByTestId('playground-panel-b').waitFor();
    // B keeps the default: the built-in responder
    await ask(`${policy.title}?`);
    await page.locator('[data-testid="playground-answer-a"][data-status="done"]').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="playground-answer-b"][data-status="done"]').waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('playground-answer-a').innerText(), 'answer from e2e');
    const b = await page.getByTestId('playground-answer-b').innerText();
    assert.ok(b.length > 10 && b !== 'answer from e2e', `B answered: ${b}`);
    assert.match(await page.getByTestId('playground-meta-b').innerText(), /内置检索应答|built-in responder/);
    assert.ok((await page.getByTestId('playground-citations-b').innerText()).includes(policy.title));
    // the two answers sit side by side
    const boxA = (await page.getByTestId('playground-panel-a').boundingBox())!;
    const boxB = (await page.getByTestId('playground-panel-b').boundingBox())!;
    assert.ok(boxB.x > boxA.x + boxA.width - 1 && Math.abs(boxA.y - boxB.y) < 5, 'side by side');
    const diff = page.getByTestId('playground-diff');
    await diff.waitFor();
    const both = await page.getByTestId('playground-diff-both').innerText();
    assert.ok(both.includes(policy.title), `both: ${both}`);
    const onlyA = await page.getByTestId('playground-diff-only-a').locator('.ant-list-item').count();
    const citedA = await page.getByTestId('playground-citations-a').locator('.ant-list-item').count();
    const inBoth = await page.getByTestId('playground-diff-both').locator('.ant-list-item').count();
    assert.equal(onlyA + inBoth, citedA, 'every citation of A is either only in A or in both');
    await settle(page);
    await h.shot(page, 'playground-compare');
    assert.deepEqual(pageErrors, []);
  });

  it('an answer shows its cost and opens its trace: the hits with scores, the prompt, the model call and its cost, the completion', async () => {
    if (await page.getByTestId('playground-panel-b').isVisible()) await page.getByTestId('playground-compare').click();
    await page.getByTestId('playground-panel-b').waitFor({ state: 'hidden' });
    await ask(`${policy.title}?`);
    await page.locator('[data-testid="playground-answer-a"][data-status="done"]').last().waitFor({ timeout: 30_000 });
    // 11 prompt tokens at 2 per million, 3 completion tokens at 10 per million (the stand-in's usage)
    const cost = page.getByTestId('playground-cost-a');
    await cost.waitFor();
    assert.match(await cost.innerText(), /0\.000052/);
    const href = await page.getByTestId('playground-trace-a').getAttribute('href');
    assert.match(href ?? '', /^\/intelligent_text\/scriptManage\/trace\/\d+$/);
    await settle(page);
    await h.shot(page, 'playground-cost');

    await openAdminPage(page, href!);
    await page.getByTestId('trace-page').waitFor();
    assert.match(await page.getByTestId('trace-cost').innerText(), /0\.000052/);
    assert.match(await page.getByTestId('trace-tokens').innerText(), /11/);
    assert.ok((await page.getByTestId('trace-question').innerText()).includes(policy.title));
    const retrieval = await page.getByTestId('trace-retrieval').innerText();
    assert.ok(retrieval.includes(policy.title), `retrieval: ${retrieval}`);
    // what decided: the deciding hit's confidence against the threshold and the five signals, labelled as on the hit-testing page
    const decided = await page.getByTestId('trace-decided-by').innerText();
    assert.match(decided, /Topics held|本段含主题/, `decided: ${decided}`);
    assert.match(decided, /Words unsaid|无处提及的词/, `decided: ${decided}`);
    const calls = await page.getByTestId('trace-calls').innerText();
    assert.ok(calls.includes('E2E stand-in') && calls.includes('0.000052'), `calls: ${calls}`);
    assert.equal(await page.getByTestId('trace-completion').innerText(), 'answer from e2e');
    // the prompt sent, folded by default, holds the retrieved knowledge
    await page.getByRole('button', { name: /Prompt sent|发送的提示词/ }).click();
    const prompt = await page.getByTestId('trace-prompt').innerText();
    assert.ok(prompt.includes(policy.title), `prompt: ${prompt.slice(0, 300)}`);
    await settle(page);
    await h.shot(page, 'playground-trace');
    assert.deepEqual(pageErrors, []);
  });
});

describe('playground conversation', () => {
  it('keeps the conversation: the second question goes to the model after the first and its answer; the last answer shows its trace and cost', async () => {
    await openAdminPage(page, '/intelligent_text/scriptManage/playground');
    await page.getByTestId('prompt-playground').waitFor();
    await page.waitForLoadState('networkidle');
    if (await page.getByTestId('playground-panel-b').isVisible()) await page.getByTestId('playground-compare').click();
    await choose('playground-shop', String(policy.shop_id));
    await choose('playground-model-a', 'E2E stand-in');
    const first = `${policy.title}?`;
    const second = 'And how long does it take?';
    const done = (n: number) =>
      page.waitForFunction(
        (want) => document.querySelectorAll('[data-testid="playground-result-a"] [data-status="done"]').length === want,
        n,
        { timeout: 30_000 },
      );
    await ask(first);
    await done(1);
    const before = fake.requests.length;
    await ask(second);
    await done(2);
    assert.equal(fake.requests.length, before + 1);
    // the model got the conversation: the prompt, the first question, its answer, then the second question
    const messages = fake.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(messages.slice(1).map((m) => [m.role, m.content]), [['user', first], ['assistant', 'answer from e2e'], ['user', second]]);
    assert.equal(messages[0].role, 'system');
    // both turns on the page, the last answer with its cost and trace
    const shown = await page.getByTestId('playground-result-a').innerText();
    assert.ok(shown.includes(first) && shown.includes(second), shown);
    assert.match(await page.getByTestId('playground-cost-a').innerText(), /0\.0000/);
    const href = await page.getByTestId('playground-trace-a').getAttribute('href');
    assert.match(href ?? '', /^\/intelligent_text\/scriptManage\/trace\/\d+$/);
    await settle(page);
    await h.shot(page, 'playground-conversation');
    await openAdminPage(page, href!);
    await page.getByTestId('trace-page').waitFor();
    assert.ok((await page.getByTestId('trace-question').innerText()).includes(second));
    assert.match(await page.getByTestId('trace-cost').innerText(), /0\.0000/);
    await page.getByRole('button', { name: /Prompt sent|发送的提示词/ }).click();
    const prompt = await page.getByTestId('trace-prompt').innerText();
    assert.ok(prompt.includes(first) && prompt.includes(second), `prompt: ${prompt.slice(-400)}`);
    assert.deepEqual(pageErrors, []);
  });
});

describe('hit testing', () => {
  it('a threshold tried on the page changes the decision it shows (which chunks the answer would use)', async () => {
    type Hit = { rank: number; answer_rank: number | null; relevance: number; used: number };
    type HitTest = { decision: { top_k: number; answered: boolean; responder: string }; list: Hit[] };
    // a question whose decision a threshold can turn over: answered with every relevance under 1
    // (a higher threshold declines), or declined with chunks in the top-k (threshold 0 uses them)
    const topOf = (r: HitTest) => Math.max(0, ...r.list.filter((x) => x.answer_rank !== null).map((x) => x.relevance));
    let q = '';
    let base: HitTest | null = null;
    for (const candidate of [`${policy.title} saxophone`, 'Do you offer gift wrapping?', `${policy.title}?`]) {
      const r = await api<HitTest>(page, 'knowledge/hit-test', { query: candidate, shop_id: policy.shop_id });
      if (r.decision.answered ? topOf(r) < 1 : r.list.length > 0) {
        q = candidate;
        base = r;
        break;
      }
    }
    assert.ok(base, 'a question the threshold can turn over');
    const topRel = topOf(base);
    const tried = base.decision.answered ? Math.min(1, Math.ceil((topRel + 0.001) * 100) / 100) : 0;
    const list = 'intelligent_text.knowledge_hit_test';
    await openAdminPage(page, `/intelligent_text/learn/policyManagement/hitTest?query=${encodeURIComponent(q)}&shop_id=${policy.shop_id}`);
    const table = await waitList(page, list);
    const column = async (title: string) => {
      const headers = await table.locator('thead th').allInnerTexts();
      const col = headers.findIndex((t) => t.trim() === title) + 1;
      assert.ok(col > 0, `headers: ${headers.join('|')}`);
      return (await table.locator(`.ant-table-tbody tr.ant-table-row td:nth-child(${col})`).allInnerTexts()).map((t) => t.trim());
    };
    const shown = await column('用于回答');
    assert.deepEqual(shown, base.list.map((x) => (x.used ? '是' : '否')));
    await settle(page);
    await h.shot(page, 'hit-test-default');
    // the threshold typed into the filter bar and searched: the page asks again and shows the new decision
    const input = page.getByTestId('list-filters').locator('.ant-formily-item').filter({ hasText: '分数阈值' }).locator('input');
    await input.fill(String(tried));
    const asked = page.waitForResponse((r) => r.url().includes('knowledge/hit-test') && new URL(r.url()).searchParams.get('threshold') === String(tried));
    await page.getByTestId('filter-search').click();
    await asked;
    const expected = base.list.map((x) => (x.answer_rank !== null && x.relevance >= tried ? '是' : '否'));
    const headers = await table.locator('thead th').allInnerTexts();
    const usedCol = headers.findIndex((t) => t.trim() === '用于回答') + 1;
    // the table redrawn with the new answer
    await page.waitForFunction(
      ({ col, want }) => JSON.stringify([...document.querySelectorAll(`.ant-table-tbody tr.ant-table-row td:nth-child(${col})`)].map((td) => td.textContent?.trim())) === want,
      { col: usedCol, want: JSON.stringify(expected) },
    );
    const after = await column('用于回答');
    assert.deepEqual(after, expected);
    assert.notDeepEqual(after, shown, 'the decision changed');
    assert.ok((await column('分数阈值')).every((t) => t === String(tried)));
    await settle(page);
    await h.shot(page, 'hit-test-threshold');
    // the answer path chosen in the filter bar ('应答方式'): a model's prompt decides on its own candidates, as the API says
    const model = await api<HitTest>(page, 'knowledge/hit-test', { query: q, shop_id: policy.shop_id, responder: 'model' });
    assert.equal(model.decision.responder, 'model');
    await openAdminPage(page, `/intelligent_text/learn/policyManagement/hitTest?query=${encodeURIComponent(q)}&shop_id=${policy.shop_id}&responder=model`);
    await waitList(page, list);
    // a folded filter holding a value is shown unfolded
    assert.equal(await page.getByTestId('list-filters').locator('.ant-formily-item').filter({ hasText: '应答方式' }).count(), 1);
    assert.deepEqual(await column('用于回答'), model.list.map((x) => (x.used ? '是' : '否')));
    assert.deepEqual(pageErrors, []);
  });
});
