import type { Queryable } from '../db.js';
import { insertMany, insertRows } from './insert.js';
import { daysAgo, DEMO_NOW, type Rng } from './random.js';
import type { ShopInfo } from './shops.js';
import { documentsOf, policiesOf, profileOf, retiredPolicyOf } from './knowledge.js';
import { CN_PRODUCTS, POLICY_TOPICS, PRODUCTS, QUESTIONS } from './words.js';

/**
 * Each shop's own knowledge (knowledge.ts: one profile per shop, policies in the shop's language,
 * every source type 1–11 and both channels across the demo, a retired policy switched off on some
 * shops), plus auto-learned candidates. The draws of `rng` are the same as before the knowledge
 * was made per shop, so the rest of the demo data did not move.
 */
export async function seedPolicies(db: Queryable, rng: Rng, shops: ShopInfo[]) {
  const rows: unknown[][] = [];
  const lp: unknown[][] = [];
  const lpp: unknown[][] = [];
  for (const [si, s] of shops.slice(0, Math.ceil(shops.length * 0.6)).entries()) {
    const n = rng.int(2, 6);
    const dates: Date[] = [];
    for (let k = 0; k < n; k++) {
      rng.pick(POLICY_TOPICS);
      dates.push(daysAgo(rng, 300));
      rng.chance(0.7);
      rng.chance(0.9);
    }
    const profile = profileOf(s);
    const policies = policiesOf(profile);
    policies.forEach((x, k) => {
      const at = dates[k % dates.length];
      rows.push([s.id, x.title, x.content, ((si + k) % 11) + 1, x.channel, 1, at, at]);
    });
    if (si % 4 === 1) {
      const old = retiredPolicyOf(profile);
      rows.push([s.id, old.title, old.content, 1, old.channel, 0, dates[0], dates[0]]);
    }
    if (rng.chance(0.3)) {
      const q = rng.pick(QUESTIONS);
      lp.push([s.id, q, `Suggested answer for "${q}" learned from recent tickets.`, rng.chance(0.6) ? 'chat' : 'email', rng.weighted([[0, 5], [1, 3], [2, 2]] as const)]);
    }
    if (rng.chance(0.2)) {
      const title = s.type === 2 ? rng.pick(CN_PRODUCTS) : rng.pick(PRODUCTS);
      lpp.push([s.id, String(rng.int(1000000, 9999999)), title, `${title}: material, sizes and care notes learned from the product page.`, rng.weighted([[0, 5], [1, 3], [2, 2]] as const)]);
    }
  }
  const policyIds = await insertMany(db, 'policy', ['shop_id', 'title', 'content', 'source_type', 'channel', 'status', 'created_at', 'updated_at'], rows);
  await insertRows(db, 'learn_policy', ['shop_id', 'question', 'answer', 'channel', 'status'], lp);
  await insertRows(db, 'learn_policy_product', ['shop_id', 'product_id', 'product_title', 'content', 'status'], lpp);
  return policyIds;
}

/** Learning materials (tickets and dialogues), knowledge written from some, documents with text. */
export async function seedLearning(db: Queryable, rng: Rng, shops: ShopInfo[], materials: number) {
  const rows: unknown[][] = [];
  for (let i = 0; i < materials; i++) {
    const s = rng.pick(shops);
    const q = rng.pick(QUESTIONS);
    const status = rng.weighted([[0, 5], [1, 3], [2, 2]] as const);
    const at = daysAgo(rng, 200);
    rows.push([
      s.id, s.userId, rng.chance(0.6) ? 'chat' : 'email', rng.pick([3, 5, 6, 9, 11]), q,
      `Customer: ${q}\nOrder #${rng.int(1001, 1999)}, placed ${rng.int(2, 20)} days ago.`,
      status === 0 ? '' : `Agent: Thanks for reaching out! ${rng.pick(POLICY_TOPICS)[1]}`,
      status, status === 1 ? rng.weighted([[2, 6], [1, 2], [0, 2]] as const) : 0, '', rng.chance(0.1) ? 'Check with the merchant first' : '', at, at,
    ]);
  }
  const ids = await insertMany(db, 'learn_material', ['shop_id', 'user_id', 'channel', 'source_type', 'subject', 'question', 'answer', 'status', 'ticket_learn', 'ticket_learn_note', 'remark', 'created_at', 'updated_at'], rows);
  const kn: unknown[][] = [];
  ids.forEach((id, i) => {
    const r = rows[i];
    if (r[7] === 1 && rng.chance(0.5)) kn.push([id, r[0], r[4], r[6], r[2]]);
  });
  await insertRows(db, 'learn_knowledge', ['material_id', 'shop_id', 'question', 'answer', 'channel'], kn);

  // multi-page documents of a few shops with knowledge (their own values), and one that failed
  const withKnowledge = shops.slice(0, Math.ceil(shops.length * 0.6));
  const docShops = [0, 1, 2, 3, 4].map((k) => withKnowledge[(k * 37 + 5) % withKnowledge.length]);
  const docRows: unknown[][] = [];
  for (let i = 0; i < 6; i++) {
    const at = daysAgo(rng, 60);
    rng.pick(shops);
    if (i === 5) {
      docRows.push([docShops[0].id, 'brand-voice.pdf', 'pdf', 18204, 2, '', 'no text found in the document (a scanned PDF without a text layer) / 文档中没有可提取的文字', Buffer.alloc(0), at, null]);
      continue;
    }
    const s = docShops[i];
    for (const d of documentsOf(profileOf(s), i)) {
      docRows.push([s.id, d.name, d.type, Buffer.byteLength(d.text), 1, d.text, '', Buffer.from(d.text), at, at]);
    }
  }
  await insertRows(db, 'learn_doc', ['shop_id', 'name', 'file_type', 'size', 'status', 'content', 'error', 'file', 'created_at', 'learned_at'], docRows);

  const models = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet', 'qwen-max', 'doubao-pro'];
  const asst: unknown[][] = [];
  for (let i = 0; i < 14; i++) {
    const s = rng.chance(0.7) ? rng.pick(shops) : null;
    const cn = s?.type === 2;
    asst.push([
      cn ? `抖音客服助手 ${i + 1}` : `${rng.pick(['Support', 'Pre-sales', 'Returns', 'Order status', 'VIP'])} assistant ${i + 1}`,
      s?.id ?? null, cn ? 'doubao-pro' : rng.pick(models),
      cn ? '你是一名耐心的电商客服，回答简洁，先确认订单号。' : 'You are a friendly support agent for an online store. Answer briefly, cite the policy, and offer a next step.',
      cn ? '您好，请问有什么可以帮您？' : 'Hi! How can I help you today?', Number((rng.int(2, 9) / 10).toFixed(1)), rng.chance(0.7) ? 'chat' : 'email', rng.chance(0.8) ? 1 : 0,
    ]);
  }
  await insertRows(db, 'chat_assistant', ['name', 'shop_id', 'model', 'prompt', 'welcome_message', 'temperature', 'channel', 'status'], asst);
}

/** Notifications in every state; pushed ones have deliveries and some reads. */
export async function seedNotifications(db: Queryable, rng: Rng) {
  const items: Array<[string, string, number[], boolean]> = [
    ['Black Friday support hours', 'Our AI agents handle the peak: check your fallback settings before Nov 28.', [1, 3], true],
    ['新功能：抖音商品知识导入', '现在可以通过 CSV 或 XLSX 批量导入抖音商品知识。', [2], true],
    ['Email channel maintenance', 'Email replies may be delayed by up to 15 minutes on Sunday 02:00–04:00 UTC.', [1, 3, 4], true],
    ['Plan price update', 'Yearly plans get two months free from next month.', [1, 2, 3, 4], true],
    ['New knowledge source: documents', 'Upload PDF or Word documents and the assistant learns from them.', [1, 4], false],
    ['双十一大促客服准备', '请提前检查自动回复与人工转接设置。', [2], false],
    ['Shopline integration beta', 'Shopline stores can now join the beta.', [3], false],
  ];
  for (const [title, content, types, pushed] of items) {
    const at = daysAgo(rng, 90, 3);
    const [{ id }] = (
      await db.query<{ id: number }>(
        `INSERT INTO notification (title, content, status, jump_link, target_types, pushed_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5::smallint[], $6, $7, $7) RETURNING id`,
        [title, content, pushed ? 1 : 0, rng.chance(0.5) ? 'https://help.example.com/notices' : '', types, pushed ? new Date(at.getTime() + 3600000) : null, at],
      )
    ).rows;
    if (!pushed) continue;
    await db.query(
      `INSERT INTO notification_delivery (notification_id, shop_id, delivered_at, read_at)
       SELECT $1, s.id, $2, CASE WHEN (s.id * 7 + $1) % 10 < 4 THEN $2::timestamptz + interval '1 day' END
         FROM shop s WHERE s.active AND s.type = ANY($3::smallint[])`,
      [id, new Date(at.getTime() + 3600000), types],
    );
    await db.query(
      `UPDATE notification SET push_quantity = (SELECT count(*) FROM notification_delivery WHERE notification_id = $1),
              push_read_count = (SELECT count(*) FROM notification_delivery WHERE notification_id = $1 AND read_at IS NOT NULL) WHERE id = $1`,
      [id],
    );
  }
}

/** Plans for text and voice, plan orders in every status, and their change logs. */
export async function seedPlans(db: Queryable, rng: Rng, shops: ShopInfo[], orders: number) {
  const plans: unknown[][] = [
    ['Starter', 'text', 'month', 29, 'USD', 1000, 500, 0, 1, 'For new stores: chat and email AI replies.', 1],
    ['Growth', 'text', 'month', 99, 'USD', 5000, 3000, 0, 1, 'Growing stores with auto-learning.', 2],
    ['Pro', 'text', 'month', 299, 'USD', 20000, 10000, 0, 1, 'High-volume stores, priority support.', 3],
    ['Growth (yearly)', 'text', 'year', 990, 'USD', 60000, 36000, 0, 1, 'Growth billed yearly: two months free.', 4],
    ['Enterprise', 'text', 'year', 5990, 'USD', 500000, 200000, 0, 1, 'KA / BPO merchants, custom SLA.', 5],
    ['抖音标准版', 'text', 'month', 399, 'CNY', 8000, 0, 0, 1, '抖音店铺 AI 客服标准版。', 6],
    ['Voice Basic', 'voice', 'month', 149, 'USD', 0, 0, 1000, 1, 'Outbound and inbound AI calls.', 7],
    ['Voice Legacy', 'voice', 'quarter', 399, 'USD', 0, 0, 3000, 0, 'No longer sold.', 8],
  ];
  const planIds = await insertMany(db, 'plan', ['name', 'product', 'period', 'price', 'currency', 'chat_quota', 'email_quota', 'voice_minutes', 'status', 'description', 'sort'], plans);
  const rows: unknown[][] = [];
  const seq = new Set<string>();
  for (let i = 0; i < orders; i++) {
    const s = rng.pick(shops);
    const pi = rng.int(0, plans.length - 1);
    const start = daysAgo(rng, 400);
    const months = plans[pi][2] === 'year' ? 12 : plans[pi][2] === 'quarter' ? 3 : 1;
    const end = new Date(start.getTime() + months * 30 * 86400000);
    const status = end.getTime() < DEMO_NOW ? rng.weighted([[2, 8], [4, 1], [3, 1]] as const) : rng.weighted([[1, 8], [0, 1], [3, 1]] as const);
    let no = `PO${start.toISOString().slice(0, 10).replace(/-/g, '')}${String(i + 1).padStart(6, '0')}`;
    while (seq.has(no)) no += 'X';
    seq.add(no);
    rows.push([no, s.userId, s.id, planIds[pi], plans[pi][3], plans[pi][4], status, start, end, rng.chance(0.15) ? 'Discount approved by sales' : '', start, start]);
  }
  const ids = await insertMany(db, 'plan_order', ['order_no', 'user_id', 'shop_id', 'plan_id', 'amount', 'currency', 'status', 'start_at', 'end_at', 'remark', 'created_at', 'updated_at'], rows);
  const logs: unknown[][] = [];
  ids.forEach((id, i) => {
    const r = rows[i];
    logs.push([id, 'create', JSON.stringify({ after: { order_no: r[0], plan_id: r[3], amount: r[4], status: 0 } }), null, 'system', r[10]]);
    if (r[6] !== 0) {
      logs.push([id, 'update', JSON.stringify({ status: { from: 0, to: r[6] } }), null, rng.pick(['Ops Alice', 'Ops Bob', 'system']), new Date((r[10] as Date).getTime() + 3600000)]);
    }
  });
  await insertRows(db, 'plan_order_log', ['plan_order_id', 'action', 'changes', 'operator_id', 'operator_name', 'created_at'], logs);
}
