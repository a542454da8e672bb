/**
 * Auto-learn (configCenter/autoLearn + autoLearnShop → learn/autoLearnPolicy, autoLearnProduct).
 *
 * - Schedules: auto-learn-schedule.ts (the `autolearn.schedule` ticker enqueues this job).
 * - Mining (`autolearn.mine`): the replies human agents wrote since the rule's last run — chat
 *   messages of type 4 (human reply) and sent ticket mails not written by the AI — each paired
 *   with the customer's message before it, in the shops enabled in autoLearnShop with
 *   `learn_policy`. A pair becomes a candidate (learn_policy, status pending) when it is a real
 *   question (not a greeting or a hand-off request), its confidence reaches the rule's
 *   `min_confidence`, and neither an existing policy of the shop nor an earlier candidate
 *   already covers it. Each candidate has a unique `source_key` (the reply it came from), and
 *   the rule's watermark moves in the same transaction as the candidates of a batch, so a
 *   resumed or repeated run never adds one twice. Shops with `learn_product` also get their
 *   identified product descriptions as product-knowledge candidates (learn_policy_product).
 *   Everything is deterministic: the same messages give the same candidates (auto-learn-judge.ts).
 */
import type { Queryable } from '../../db/db.js';
import type { JobContext, JobKind } from '../../jobs/types.js';
import { cleanMessage, contentTokens, covered, fingerprintOf, judgePair, type Knowledge } from './auto-learn-judge.js';

export const MINE_KIND = 'autolearn.mine';

/** Chat pairs (source 'chat'), ticket mails (source 'mail'), or both, by the rule's source type. */
export function sourcesOf(sourceType: number): Array<'chat' | 'mail'> {
  if (sourceType === 3 || sourceType === 5) return ['mail']; // ticket, auto-learn ticket
  if (sourceType === 6 || sourceType === 9 || sourceType === 11) return ['chat']; // history, training
  return ['chat', 'mail'];
}

/** The policies of a shop as token sets (titles, and the start of each content). */
async function shopKnowledge(db: Queryable, shopId: number): Promise<Knowledge> {
  const r = await db.query<{ title: string; content: string }>(
    `SELECT title, left(content, 2000) AS content FROM policy WHERE shop_id = $1 ORDER BY id LIMIT 5000`,
    [shopId],
  );
  return r.rows.map((p) => ({ title: contentTokens(p.title), content: contentTokens(p.content) }));
}

interface PairRow {
  reply_id: number;
  session_id: number;
  shop_id: number;
  answer: string;
  question: string | null;
  channel: 'chat' | 'email';
}

const BATCH = 200;

/** Human replies after `after` (id order), each with the customer message before it. */
async function pairs(db: Queryable, source: 'chat' | 'mail', shops: number[], after: number): Promise<PairRow[]> {
  if (source === 'chat') {
    return (
      await db.query<PairRow>(
        `SELECT r.id AS reply_id, r.session_id, s.shop_id, r.content AS answer, 'chat' AS channel,
                (SELECT q.content FROM chat_message q
                  WHERE q.session_id = r.session_id AND q.msg_type = 1 AND (q.sent_at < r.sent_at OR (q.sent_at = r.sent_at AND q.id < r.id))
                  ORDER BY q.sent_at DESC, q.id DESC LIMIT 1) AS question
           FROM chat_message r JOIN chat_session s ON s.id = r.session_id
          WHERE r.msg_type = 4 AND r.id > $1 AND s.shop_id = ANY($2::int[])
          ORDER BY r.id LIMIT ${BATCH}`,
        [after, shops],
      )
    ).rows;
  }
  return (
    await db.query<PairRow>(
      `SELECT r.id AS reply_id, r.session_id, s.shop_id, r.body AS answer, 'email' AS channel,
              (SELECT q.body FROM mail_message q
                WHERE q.session_id = r.session_id AND q.direction_type = 1 AND (q.sent_at < r.sent_at OR (q.sent_at = r.sent_at AND q.id < r.id))
                ORDER BY q.sent_at DESC, q.id DESC LIMIT 1) AS question
         FROM mail_message r JOIN mail_session s ON s.id = r.session_id
        WHERE r.direction_type IN (2, 3, 4) AND r.is_ai = 0 AND r.id > $1 AND s.shop_id = ANY($2::int[])
        ORDER BY r.id LIMIT ${BATCH}`,
      [after, shops],
    )
  ).rows;
}

interface MineData {
  ruleId: number;
  due: string;
}

interface MineRule {
  id: number;
  source_type: number;
  min_confidence: string | number;
  mined_chat_id: number;
  mined_mail_id: number;
}

async function minePolicies(ctx: JobContext<MineData>, rule: MineRule, shops: number[], tally: Record<string, number>) {
  const knowledge = new Map<number, Knowledge>();
  const min = Number(rule.min_confidence);
  for (const source of sourcesOf(rule.source_type)) {
    const column = source === 'chat' ? 'mined_chat_id' : 'mined_mail_id';
    let after = Number(rule[column]);
    for (;;) {
      const batch = await pairs(ctx.db, source, shops, after);
      if (!batch.length) break;
      for (const p of batch) if (!knowledge.has(p.shop_id)) knowledge.set(p.shop_id, await shopKnowledge(ctx.db, p.shop_id));
      const last = batch[batch.length - 1].reply_id;
      await ctx.db.tx(async (q) => {
        for (const p of batch) {
          tally.scanned++;
          const question = cleanMessage(p.question ?? '').slice(0, 500);
          const answer = cleanMessage(p.answer).slice(0, 20000);
          const v = judgePair(question, answer, min);
          if (!v.keep) {
            tally[v.reason]++;
            continue;
          }
          if (covered(knowledge.get(p.shop_id)!, question, answer)) {
            tally.covered++;
            continue;
          }
          const fp = fingerprintOf(question);
          const dup = await q.query(`SELECT 1 FROM learn_policy WHERE shop_id = $1 AND fingerprint = $2 LIMIT 1`, [p.shop_id, fp]);
          if (dup.rows.length) {
            tally.duplicate++;
            continue;
          }
          const ins = await q.query(
            `INSERT INTO learn_policy (shop_id, question, answer, channel, status, source, source_key, session_id, rule_id, confidence, fingerprint)
             VALUES ($1, $2, $3, $4, 0, $5, $6, $7, $8, $9, $10) ON CONFLICT (source_key) DO NOTHING RETURNING id`,
            [p.shop_id, question, answer, p.channel, source, `${source}:${p.reply_id}`, p.session_id, rule.id, v.confidence, fp],
          );
          if (ins.rows.length) tally.created++;
          else tally.duplicate++;
        }
        await q.query(`UPDATE config_auto_learn SET ${column} = GREATEST(${column}, $2) WHERE id = $1`, [rule.id, last]);
      });
      after = last;
      await ctx.progress(tally.scanned);
    }
  }
}

async function mineProducts(ctx: JobContext<MineData>, rule: MineRule, shops: number[], tally: Record<string, number>) {
  if (!shops.length) return;
  const r = await ctx.db.query<{ id: number }>(
    `INSERT INTO learn_policy_product (shop_id, product_id, product_title, content, status, source_key, rule_id)
     SELECT d.shop_id, d.product_id, d.title, d.identified_desc, 0, 'desc:' || d.id || ':' || md5(d.identified_desc), $2
       FROM product_desc d
      WHERE d.shop_id = ANY($1::int[]) AND d.status = 2 AND d.identified_desc <> ''
        AND NOT EXISTS (SELECT 1 FROM learn_policy_product p WHERE p.shop_id = d.shop_id AND p.product_id = d.product_id AND p.content = d.identified_desc)
     ON CONFLICT (source_key) DO NOTHING RETURNING id`,
    [shops, rule.id],
  );
  tally.products = r.rows.length;
}

export const mineKind: JobKind<MineData> = {
  kind: MINE_KIND,
  title: (d) => `Auto-learn rule ${d.ruleId} / 自动学习规则 ${d.ruleId}`,
  maxAttempts: 3,
  async run(ctx) {
    const rule = (
      await ctx.db.query<MineRule>(
        `SELECT id, source_type, min_confidence, mined_chat_id, mined_mail_id FROM config_auto_learn WHERE id = $1`,
        [ctx.job.data.ruleId],
      )
    ).rows[0];
    if (!rule) return { skipped: 'the rule was deleted / 规则已删除' };
    const shops = (
      await ctx.db.query<{ shop_id: number; learn_policy: boolean; learn_product: boolean }>(
        `SELECT shop_id, learn_policy, learn_product FROM config_auto_learn_shop WHERE enabled ORDER BY shop_id`,
      )
    ).rows;
    const tally: Record<string, number> = { scanned: 0, created: 0, not_a_question: 0, low_confidence: 0, covered: 0, duplicate: 0, products: 0 };
    const policyShops = shops.filter((s) => s.learn_policy).map((s) => s.shop_id);
    if (policyShops.length) await minePolicies(ctx, rule, policyShops, tally);
    await mineProducts(ctx, rule, shops.filter((s) => s.learn_product).map((s) => s.shop_id), tally);
    await ctx.progress(tally.scanned, tally.scanned);
    return { due: ctx.job.data.due, shops: shops.length, ...tally };
  },
};

