import type { Db, Queryable } from '../db.js';
import { answerQuestion } from '../../ai/answer.js';
import { writeTrace } from '../../ai/trace.js';
import { insertMany } from './insert.js';
import { CHAT_QUESTIONS, type Lang } from './knowledge.js';
import { DEMO_NOW, Rng, daysAgo } from './random.js';
import { FIRST, LAST, POLICY_TOPICS, PRODUCTS } from './words.js';
import { FEEDBACK_STATUS } from '../../resources/enums.js';

interface SessionShop {
  id: number;
  name: string;
  type: number;
}
const langOf = (shop: SessionShop): Lang => (shop.type === 2 ? 'zh' : 'en');

/** The built-in responder's answer from the shop's own knowledge, the policy it cited and (a chat reply) its trace. */
async function aiReply(q: Queryable, shop: SessionShop, question: string, channel: 'chat' | 'email', traced = false): Promise<{ text: string; policyId: number | null; traceId: number | null }> {
  const a = await answerQuestion(q, { question, shopId: shop.id, channel });
  const cited = a.citations.find((c) => c.source_type === 'policy');
  const traceId = traced ? await writeTrace(q, { kind: 'chat', question, shopId: shop.id, channel, answer: a, refType: 'chat_session' }) : null;
  return { text: a.text, policyId: cited?.source_id ?? null, traceId };
}

const CHANNELS = ['web', 'whatsapp', 'messenger', 'instagram', 'email_widget'] as const;

/**
 * Demo rows of the session, config-center, operations-tools and prompt tables. Idempotent on its
 * own table (chat_session): runs only when it is empty and shops exist.
 */
export async function seedSessions(db: Db): Promise<void> {
  const have = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM chat_session LIMIT 1) x`);
  if (have.rows[0].n > 0) return;
  // shops with knowledge first: their AI replies come from their own policies
  const shopsR = await db.query<SessionShop>(
    `SELECT id, name, type FROM shop s ORDER BY NOT EXISTS (SELECT 1 FROM policy p WHERE p.shop_id = s.id AND p.status = 1), id LIMIT 40`,
  );
  const shops = shopsR.rows;
  if (!shops.length) return;
  const rng = new Rng(6006);
  await db.tx(async (q) => {
    await seedChats(q, rng, shops);
    await seedMails(q, rng, shops);
    await seedVoice(q, rng, shops);
    await seedFeedback(q, rng);
    await seedCategories(q, shops);
    await seedConfig(q, rng, shops);
    await seedTools(q, rng, shops);
    await seedTodayChats(q, shops[0]);
  });
}

/**
 * Two chat sessions of the first demo shop at the demo's reference hour (today), added after every
 * other demo row so none of those changes (issue 26): "today's sessions of a shop" shows
 * something, one of them still going (its transcript has no end), the other ended by the
 * platform's end event without an `ended_at` (the status is derived at read, docs/modules/sessions.md).
 */
async function seedTodayChats(q: Queryable, shop: SessionShop) {
  const rows: Array<[string, string, Array<[number, string, string]>]> = [
    ['Mia Fischer', 'whatsapp', [[5, 'system', 'Mia Fischer entered the chat'], [1, 'Mia Fischer', 'Do you ship to Austria?'], [2, 'AI', 'Yes, we ship to Austria within 5 working days.'], [8, 'system', 'Conversation ended']]],
    ['Leo Martin', 'web', [
      [5, 'system', 'Leo Martin entered the chat'], [1, 'Leo Martin', 'Can I change the size of my order?'],
      [2, 'AI', 'Yes, as long as it has not shipped. Which size would you like?'], [1, 'Leo Martin', 'Size M, please.'],
    ]],
  ];
  for (const [k, [cust, channel, msgs]] of rows.entries()) {
    const start = new Date(DEMO_NOW + k * 1000);
    const s = await q.query<{ id: number }>(
      `INSERT INTO chat_session (shop_id, customer_name, customer_email, channel, country_code, message_count, last_message, started_at, ended_at)
       VALUES ($1, $2, $3, $4, 'DE', $5, $6, $7, NULL) RETURNING id`,
      [shop.id, cust, emailOf(cust), channel, msgs.length, msgs[1][2], start],
    );
    await insertMany(q, 'chat_message', ['session_id', 'msg_type', 'sender', 'content', 'sent_at'],
      msgs.map(([type, sender, content], i) => [s.rows[0].id, type, sender, content, new Date(start.getTime() + i * 20000)]));
  }
}

const name = (rng: Rng) => `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
const emailOf = (n: string) => `${n.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`;

async function seedChats(q: Queryable, rng: Rng, shops: SessionShop[]) {
  for (let i = 0; i < 60; i++) {
    const shop = shops[i % shops.length];
    const zh = langOf(shop) === 'zh';
    const cust = name(rng);
    const start = daysAgo(rng, 60);
    const question = rng.pick(CHAT_QUESTIONS[langOf(shop)])[1];
    rng.pick(POLICY_TOPICS); // (the draw the old fixed answers took: keeps the rest of the data in place)
    const product = rng.pick(PRODUCTS);
    const reply = await aiReply(q, shop, question, 'chat', true);
    const msgs: Array<[number, string, string, number | null, (number | null)?]> = [
      [5, 'system', `${cust} entered the chat`, null],
      [6, 'AI', zh ? `您好，欢迎光临${shop.name}！请问有什么可以帮您？` : `Hi ${cust.split(' ')[0]}, welcome to ${shop.name}! How can I help?`, null],
      [1, cust, question, null],
      [2, 'AI', reply.text, reply.policyId, reply.traceId],
    ];
    if (rng.chance(0.5)) msgs.push([9, cust, 'Clicked "Track order"', null], [3, 'system', `Order #${1000 + i} — shipped, in transit`, null]);
    if (rng.chance(0.4)) msgs.push([11, 'AI', `You may also like: ${product}`, null]);
    if (rng.chance(0.35)) msgs.push([1, cust, 'Can I talk to a person?', null], [4, 'Agent Lisa', 'Hi, this is Lisa. I can help you with that.', null]);
    if (rng.chance(0.2)) msgs.push([12, 'AI', 'Leave your email and we will reply to your ticket.', null], [7, 'Support', 'Your ticket has been answered by email.', null]);
    msgs.push([8, 'system', 'Conversation ended', null]);
    const ended = rng.chance(0.85) ? new Date(start.getTime() + msgs.length * 45000) : null;
    const s = await q.query<{ id: number }>(
      `INSERT INTO chat_session (shop_id, customer_name, customer_email, channel, country_code, message_count, last_message, started_at, ended_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [shop.id, cust, emailOf(cust), rng.pick(CHANNELS), rng.pick(['US', 'GB', 'DE', 'CA', 'FR']), msgs.length, question, start, ended],
    );
    await insertMany(q, 'chat_message', ['session_id', 'msg_type', 'sender', 'content', 'policy_id', 'trace_id', 'sent_at'],
      msgs.map(([type, sender, content, policyId, traceId], k) => [s.rows[0].id, type, sender, content, policyId, traceId ?? null, new Date(start.getTime() + k * 45000)]));
    if (reply.traceId) await q.query(`UPDATE ai_trace SET ref_id = $2 WHERE id = $1`, [reply.traceId, s.rows[0].id]);
    if (i % 4 === 0) {
      await q.query(
        `INSERT INTO session_mark (session_id, mark_type, is_correct, question, answer, remark, marked_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [s.rows[0].id, rng.pick(['accuracy', 'tone', 'policy']), rng.chance(0.6), question, reply.text, '', 'admin@example.com', start],
      );
    }
  }
}

async function seedMails(q: Queryable, rng: Rng, shops: SessionShop[]) {
  for (let i = 0; i < 40; i++) {
    const shop = shops[(i * 3) % shops.length];
    const cust = name(rng);
    const cemail = emailOf(cust);
    const shopMail = `support@${shop.name.toLowerCase().replace(/[^a-z0-9]+/g, '')}.com`;
    const zh = langOf(shop) === 'zh';
    const subject = rng.pick(CHAT_QUESTIONS[langOf(shop)])[1];
    const start = daysAgo(rng, 60);
    rng.pick(POLICY_TOPICS);
    const reply = await aiReply(q, shop, subject, 'email');
    const mails: Array<[number, string, string, string, number]> = [
      [1, cemail, shopMail, zh ? `您好，${subject} 谢谢！${cust}` : `Hello, ${subject} Thanks, ${cust}`, 0],
      [rng.pick([2, 3, 4]), shopMail, cemail, zh ? `${cust}，您好：\n\n${reply.text}\n\n祝好` : `Dear ${cust.split(' ')[0]},\n\n${reply.text}\n\nBest regards`, 1],
    ];
    if (rng.chance(0.4)) mails.push([1, cemail, shopMail, 'Thank you, that helps!', 0]);
    if (rng.chance(0.2)) mails.push([6, shopMail, 'ops@example.com', 'Forwarding for review.', 0]);
    if (rng.chance(0.15)) mails.push([5, 'news@example.com', shopMail, 'Weekly newsletter', 0]);
    const last = new Date(start.getTime() + (mails.length - 1) * 3600000);
    const s = await q.query<{ id: number }>(
      `INSERT INTO mail_session (shop_id, subject, customer_email, mail_count, started_at, last_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [shop.id, subject, cemail, mails.length, start, last],
    );
    await insertMany(q, 'mail_message', ['session_id', 'direction_type', 'from_addr', 'to_addr', 'subject', 'body', 'is_read', 'is_ai', 'has_attachment', 'sent_at'],
      mails.map(([dir, from, to, body, ai], k) => [s.rows[0].id, dir, from, to, k ? `Re: ${subject}` : subject, body, 1, ai, k === 0 && rng.chance(0.2) ? 1 : 0, new Date(start.getTime() + k * 3600000)]));
  }
}

async function seedVoice(q: Queryable, rng: Rng, shops: SessionShop[]) {
  for (let i = 0; i < 30; i++) {
    const shop = shops[(i * 5) % shops.length];
    rng.pick(POLICY_TOPICS);
    const question = rng.pick(CHAT_QUESTIONS[langOf(shop)])[1];
    const reply = await aiReply(q, shop, question, 'chat');
    const lines: Array<[string, string]> = [
      ['ai', langOf(shop) === 'zh' ? `您好，这里是${shop.name}，请问有什么可以帮您？` : `Thank you for calling ${shop.name}. How can I help you today?`],
      ['customer', question],
      ['ai', reply.text],
      ['customer', rng.pick(['Great, thanks.', 'Can I speak to someone?', 'OK, bye.'])],
    ];
    if (lines[3][1].startsWith('Can')) lines.push(['agent', 'Hello, this is Mark from support.']);
    lines.push(['ai', 'Thanks for calling, goodbye!']);
    const dur = lines.length * 12 + rng.int(0, 30);
    const s = await q.query<{ id: number }>(
      `INSERT INTO voice_session (shop_id, caller, callee, direction, duration_sec, result, summary, started_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [shop.id, `+1555${String(1000000 + i * 7919).slice(-7)}`, '+18005550100', rng.chance(0.7) ? 'inbound' : 'outbound', dur, rng.weighted([[1, 8], [2, 1], [3, 0.5], [4, 1]] as const), question, daysAgo(rng, 60)],
    );
    await insertMany(q, 'voice_utterance', ['session_id', 'speaker', 'content', 'offset_ms'], lines.map(([sp, c], k) => [s.rows[0].id, sp, c, k * 12000]));
  }
}

async function seedFeedback(q: Queryable, rng: Rng) {
  const msgs = await q.query<{ id: number; session_id: number }>(`SELECT id, session_id FROM chat_message WHERE msg_type = 2 ORDER BY id LIMIT 30`);
  const rows = msgs.rows.map((m, i) => {
    const hs = i % 4;
    return [m.id, m.session_id, null, rng.pick(['wrong_answer', 'incomplete', 'tone', 'other']), rng.pick(['The AI gave the wrong return window.', 'Answer missing the tracking link.', 'Reply was too formal.', 'Customer asked about size but got shipping info.']),
      rng.pick(['shop', 'global']), rng.pick(['shopify', 'shopline', 'douyin']), rng.pick(['US', 'GB', 'DE']), `seat-${1 + (i % 5)}`, emailOf(name(rng)), daysAgo(rng, 30),
      FEEDBACK_STATUS[i % FEEDBACK_STATUS.length], hs, hs ? 'admin@example.com' : '', hs === 2 ? 'Policy updated.' : '', '', i % 3 === 0 ? '/demo/feedback-screenshot.svg' : ''];
  });
  await insertMany(q, 'feedback', ['message_id', 'session_id', 'policy_id', 'question_type', 'description', 'scope', 'platform', 'country_code', 'seat', 'email', 'feedback_at', 'status', 'handle_status', 'handler', 'annotation', 'remark', 'image'], rows);
}

async function seedCategories(q: Queryable, shops: Array<{ id: number }>) {
  const groups: Array<[number | null, string, string[]]> = [
    [null, 'Pre-sales', ['Product question', 'Stock', 'Pricing']],
    [null, 'After-sales', ['Return', 'Refund', 'Damaged item']],
    [null, 'Logistics', ['Tracking', 'Address change', 'Delay']],
    [shops[0].id, 'VIP', ['Wholesale', 'Partnership']],
  ];
  for (const [i, [shopId, g, items]] of groups.entries()) {
    const r = await q.query<{ id: number }>(`INSERT INTO session_category_group (shop_id, name, sort) VALUES ($1, $2, $3) RETURNING id`, [shopId, g, i]);
    await insertMany(q, 'session_category_item', ['group_id', 'name', 'keywords', 'sort'], items.map((n, k) => [r.rows[0].id, n, n.toLowerCase(), k]));
  }
}

async function seedConfig(q: Queryable, rng: Rng, shops: Array<{ id: number }>) {
  const servers = await insertMany(q, 'config_model_server', ['name', 'provider', 'endpoint', 'model', 'timeout_ms', 'max_concurrency', 'enabled'], [
    // examples of how servers are filled in, seeded switched off: their addresses lead nowhere on a
    // fresh machine, so answers come from the built-in responder until an operator connects one
    ['example-hosted (not connected)', 'openai', 'https://llm-gateway.example.com/v1', 'gpt-4o-mini', 30000, 50, false],
    ['example-backup (not connected)', 'anthropic', 'https://llm-gateway.example.com/v1', 'claude-3-haiku', 30000, 20, false],
    ['example-vllm (not connected)', 'self-hosted', 'http://127.0.0.1:8000/v1', 'qwen2.5-7b-instruct', 60000, 8, false],
  ]);
  const strategies = await insertMany(q, 'config_model_strategy', ['name', 'shop_id', 'scene', 'model_server_id', 'temperature', 'max_tokens', 'enabled'], [
    // off like the servers they name (an enabled strategy over no enabled server answers with the fallback reply)
    ['default-chat', null, 'chat', servers[0], 0.3, 1024, false],
    ['default-email', null, 'email', servers[1], 0.2, 2048, false],
    ['vip-chat', shops[0].id, 'chat', servers[1], 0.5, 1024, false],
  ]);
  await insertMany(q, 'config_fallback', ['shop_id', 'channel', 'reply', 'enabled'], [
    [null, 'chat', 'Sorry, I could not find an answer. A colleague will get back to you shortly.', true],
    [null, 'email', 'Thank you for your email. Our team will reply within 24 hours.', true],
    [shops[1].id, 'chat', 'Let me pass you to our support team.', true],
  ]);
  await insertMany(q, 'config_auto_learn', ['name', 'source_type', 'min_confidence', 'interval_hours', 'enabled'], [
    ['Learn from tickets', 5, 0.85, 24, true], ['Learn from history', 6, 0.9, 72, true], ['Learn from docs', 8, 0.8, 12, false],
  ]);
  await insertMany(q, 'config_auto_learn_shop', ['shop_id', 'learn_policy', 'learn_product', 'enabled'],
    shops.slice(0, 6).map((s, i) => [s.id, true, i % 2 === 0, i !== 5]));
  await insertMany(q, 'config_divert', ['name', 'shop_id', 'model_strategy_id', 'percentage', 'enabled'], [
    ['claude A/B 10%', null, strategies[1], 10, true], ['vip all', shops[0].id, strategies[2], 100, true],
  ]);
  void rng;
}

async function seedTools(q: Queryable, rng: Rng, shops: Array<{ id: number; name: string }>) {
  await insertMany(q, 'image_extraction', ['shop_id', 'title', 'image_url', 'extracted_text', 'extra_info', 'created_at'],
    Array.from({ length: 12 }, (_, i) => [shops[i % shops.length].id, `${rng.pick(PRODUCTS)} size chart`, `/demo/size-chart-${(i % 3) + 1}.svg`,
      // the size table as an operator typed it; no 'extra info': nothing here was extracted by a model
      'S: 36-38 / M: 39-41 / L: 42-44', '', new Date(DEMO_NOW - i * 86400000)]));
  const files: Array<[string, string, string]> = [
    ['return-policy.txt', 'text/plain', 'Items can be returned within 30 days.'],
    ['faq.csv', 'text/csv', 'question,answer\nDo you ship abroad?,Yes\n'],
  ];
  await insertMany(q, 'stored_file', ['name', 'content_type', 'size', 'data', 'uploaded_by', 'created_at'],
    files.map(([n, t, c], i) => [n, t, Buffer.byteLength(c), Buffer.from(c), 'admin@example.com', new Date(DEMO_NOW - i * 3600000)]));
  await insertMany(q, 'policy_import_log', ['shop_id', 'file_name', 'total', 'imported', 'failed', 'imported_by', 'created_at'], [
    [shops[0].id, 'policies-2026-10.xlsx', 12, 11, 1, 'admin@example.com', new Date(DEMO_NOW - 86400000)],
  ]);
  await insertMany(q, 'prompt', ['name', 'scene', 'content', 'remark'], [
    ['Chat default', 'chat', 'You are the support assistant of {{shop}}. Answer only from these policies:\n{{policies}}\n\nCustomer: {{question}}', ''],
    ['Email default', 'email', 'Write a polite email reply for {{shop}} using:\n{{policies}}\n\nEmail: {{question}}', ''],
  ]);
}
