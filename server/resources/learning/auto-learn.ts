/**
 * Auto-learn (configCenter/autoLearn + autoLearnShop → learn/autoLearnPolicy, autoLearnProduct).
 *
 * - Schedules: a rule runs every `interval_hours`, daily at `run_time` in `time_zone`, or on a
 *   cron expression in `time_zone` (croner). `next_run_at` is stored; the `autolearn.schedule`
 *   ticker claims a due rule with `UPDATE ... WHERE next_run_at = <due>` and enqueues its
 *   `autolearn.mine` job in the same transaction, so each due time fires once across instances.
 *   Due times are read from the engine clock. A rule whose runs were missed (the console was
 *   down) runs once, then waits for its next due time after now.
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
 *   Everything is deterministic: the same messages give the same candidates.
 */
import { createHash } from 'node:crypto';
import { Cron } from 'croner';
import type { Queryable } from '../../db/db.js';
import type { JobContext, JobKind, Ticker } from '../../jobs/types.js';

export const MINE_KIND = 'autolearn.mine';

export type ScheduleType = 'interval' | 'daily' | 'cron';

export interface Schedule {
  schedule_type: ScheduleType;
  interval_hours: number;
  run_time: string;
  time_zone: string;
  cron: string;
}

/** The cron pattern of a daily or cron schedule (null for an interval). */
function patternOf(s: Schedule): string | null {
  if (s.schedule_type === 'daily') {
    const [h, m] = s.run_time.split(':').map(Number);
    return `${m} ${h} * * *`;
  }
  if (s.schedule_type === 'cron') return s.cron.trim();
  return null;
}

/** Why a schedule cannot run (field and message), or null when it is fine. */
export function scheduleProblem(s: Schedule): { field: string; message: string } | null {
  if (s.schedule_type === 'daily' && !/^([01]\d|2[0-3]):[0-5]\d$/.test(s.run_time)) {
    return { field: 'run_time', message: 'a time as HH:MM, e.g. 03:00 / 请填写 HH:MM 格式的时间' };
  }
  if (s.schedule_type === 'cron' && !s.cron.trim()) return { field: 'cron', message: 'a cron expression is needed / 请填写 cron 表达式' };
  if (s.schedule_type !== 'interval') {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: s.time_zone });
    } catch {
      return { field: 'time_zone', message: `unknown time zone ${s.time_zone} / 未知时区` };
    }
    let runs: Date[];
    try {
      runs = new Cron(patternOf(s)!, { timezone: s.time_zone }).nextRuns(2, new Date('2026-01-01T00:00:00Z'));
    } catch (e) {
      return { field: 'cron', message: `not a cron expression: ${(e as Error).message.slice(0, 200)} / cron 表达式无效` };
    }
    if (runs.length === 0) return { field: 'cron', message: 'this cron expression never runs / 该 cron 表达式不会触发' };
    if (runs.length === 2 && runs[1].getTime() - runs[0].getTime() < 5 * 60_000) {
      return { field: 'cron', message: 'runs at most every 5 minutes / 运行间隔至少 5 分钟' };
    }
  }
  return null;
}

/** The first due time strictly after `from` (null when a cron pattern never runs again). */
export function nextRunAfter(s: Schedule, from: Date): Date | null {
  const pattern = patternOf(s);
  if (!pattern) return new Date(from.getTime() + Math.max(1, s.interval_hours) * 3_600_000);
  return new Cron(pattern, { timezone: s.time_zone }).nextRun(from);
}

/** After the run due at `due`: the next due time after `now` (missed runs are not made up). */
function nextAfterRun(s: Schedule, due: Date, now: Date): Date | null {
  if (!patternOf(s)) {
    const step = Math.max(1, s.interval_hours) * 3_600_000;
    const k = Math.max(1, Math.floor((now.getTime() - due.getTime()) / step) + 1);
    return new Date(due.getTime() + k * step);
  }
  return nextRunAfter(s, now.getTime() >= due.getTime() ? now : due);
}

interface RuleRow extends Schedule {
  id: number;
  name: string;
  next_run_at: Date | null;
  updated_at: Date;
}

/**
 * `autolearn.schedule` (every 2 s, once per slot across instances): claims each due rule and
 * enqueues its mining job in the same transaction. A rule saved before schedules existed (no
 * `next_run_at`, e.g. demo data) is due one interval / pattern time after it was last saved.
 */
export const autoLearnTicker: Ticker = {
  name: 'autolearn.schedule',
  everySeconds: 2,
  async run({ db, now, enqueue }) {
    const at = now();
    const rules = await db.query<RuleRow>(
      `SELECT id, name, schedule_type, interval_hours, run_time, time_zone, cron, next_run_at, updated_at
         FROM config_auto_learn WHERE enabled AND (next_run_at IS NULL OR next_run_at <= $1) ORDER BY id LIMIT 100`,
      [at],
    );
    for (const r of rules.rows) {
      let due: Date | null;
      try {
        due = r.next_run_at ?? nextRunAfter(r, new Date(r.updated_at));
      } catch {
        continue; // a schedule saved around the validation (cannot happen through the API)
      }
      if (!due || due.getTime() > at.getTime()) continue;
      const next = nextAfterRun(r, due, at);
      await db.tx(async (q) => {
        const claimed = await q.query(
          `UPDATE config_auto_learn SET next_run_at = $2, last_run_at = $3
            WHERE id = $1 AND enabled AND next_run_at IS NOT DISTINCT FROM $4::timestamptz RETURNING id`,
          [r.id, next, due, r.next_run_at],
        );
        if (!claimed.rows.length) return; // another instance (or an edit) got there first
        const job = await enqueue(q, MINE_KIND, { ruleId: r.id, due: due!.toISOString() }, {
          ref: { type: 'config_auto_learn', id: r.id },
          title: `Auto-learn "${r.name}" (${due!.toISOString()}) / 自动学习`,
        });
        await q.query(`UPDATE config_auto_learn SET last_job_id = $2 WHERE id = $1`, [r.id, job.id]);
      });
    }
  },
};

// ---------------------------------------------------------------------------------------------
// mining

/** Chat pairs (source 'chat'), ticket mails (source 'mail'), or both, by the rule's source type. */
export function sourcesOf(sourceType: number): Array<'chat' | 'mail'> {
  if (sourceType === 3 || sourceType === 5) return ['mail']; // ticket, auto-learn ticket
  if (sourceType === 6 || sourceType === 9 || sourceType === 11) return ['chat']; // history, training
  return ['chat', 'mail'];
}

const STOP = new Set(
  (
    'a an the is are am was were be been do does did i you we they he she it my your our their me us to of for in on at by with and or ' +
    'can could would should will shall may might what how when where which who why this that these those there here please hi hello ' +
    'hey thanks thank dear regards best just also any some if so not no yes ok okay about from as get got have has had 的 了 吗 呢 吧 啊 ' +
    '我 你 您 我们 你们 是 在 有 和 与 就 都 也 还 要 会 能 可以 请问 请 一下 什么 怎么 如何 多少 哪 这 那 个'
  ).split(/\s+/),
);

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** Content words of a text (lower case, Chinese segmented, stop words out). */
export function contentTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const s of segmenter.segment(text.toLowerCase())) {
    if (!s.isWordLike) continue;
    const w = s.segment.replace(/(?:'s|’s)$/, '');
    if (w.length < 2 && !/[\u4e00-\u9fff]/.test(w)) continue;
    if (!STOP.has(w)) out.add(w);
  }
  return out;
}

const overlap = (a: Set<string>, b: Set<string>) => {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
};

/** Greetings, sign-offs and quoted text out of a mail or chat message. */
export function cleanMessage(text: string): string {
  let t = text.replace(/\r/g, '');
  // quoted earlier mails
  t = t.replace(/\n(?:On .{5,200}wrote:|-{2,}\s*Original Message\s*-{2,}|>)[\s\S]*$/i, '');
  t = t.replace(/^\s*(?:hello|hi|hey|dear)\b[^,\n!]{0,40}[,!]\s*/i, '').replace(/^\s*(?:您好|你好)[，,!！\s]*/, '');
  t = t.replace(/\s*(?:thanks|thank you|many thanks|best regards|kind regards|regards|cheers|best|sincerely|谢谢|祝好)[,!.。！]?\s*(?:\n[^\n]{0,60}|[^\n.?!]{0,40})?\s*$/i, '');
  return t.replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim();
}

const HANDOFF = /talk to (?:a |an )?(?:person|human|agent|someone|representative)|speak (?:to|with) (?:a |an )?(?:person|human|agent|someone)|real person|转人工|人工客服|找人工/i;
const SMALL_TALK = /^(?:hi|hello|hey|thanks?|thank you|ok(?:ay)?|bye|good ?bye|great|你好|您好|谢谢|好的|再见|嗯)[\s!.,。！~]*$/i;
const QUESTION = /[?？]|^(?:how|what|when|where|which|who|why|can|could|do|does|did|is|are|will|would|should|may|have|has)\b|吗|怎么|如何|能否|可否|可以|多久|多少|什么|哪|几天|是否/i;
const GREETING_ONLY = /^(?:hi|hello|dear|hey|您好|你好)\b[\s\S]{0,80}$/i;

export interface Verdict {
  keep: boolean;
  reason: 'ok' | 'not_a_question' | 'low_confidence';
  confidence: number;
}

/** How likely a customer message + agent reply is reusable knowledge (deterministic, 0–1). */
export function judgePair(question: string, answer: string, minConfidence: number): Verdict {
  const q = question.trim();
  const a = answer.trim();
  if (!q || !a || HANDOFF.test(q) || SMALL_TALK.test(q)) return { keep: false, reason: 'not_a_question', confidence: 0 };
  const qt = contentTokens(q);
  const at = contentTokens(a);
  let score = 0.3;
  if (QUESTION.test(q)) score += 0.3;
  if (at.size >= 6) score += 0.2;
  if (at.size >= 15) score += 0.1;
  if (overlap(qt, at) > 0) score += 0.1;
  if (GREETING_ONLY.test(a) && at.size < 8) score -= 0.3;
  const confidence = Math.round(Math.max(0, Math.min(1, score)) * 100) / 100;
  return { keep: confidence >= minConfidence, reason: confidence >= minConfidence ? 'ok' : 'low_confidence', confidence };
}

export const fingerprintOf = (question: string): string =>
  createHash('md5').update(question.toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, ' ').trim()).digest('hex');

/** The policies of a shop as token sets (titles, and the start of each content). */
async function shopKnowledge(db: Queryable, shopId: number) {
  const r = await db.query<{ title: string; content: string }>(
    `SELECT title, left(content, 2000) AS content FROM policy WHERE shop_id = $1 ORDER BY id LIMIT 5000`,
    [shopId],
  );
  return r.rows.map((p) => ({ title: contentTokens(p.title), content: contentTokens(p.content) }));
}

type Knowledge = Awaited<ReturnType<typeof shopKnowledge>>;

/** A policy already answers it: its title carries the question's words, or its content is the answer. */
export function covered(knowledge: Knowledge, question: string, answer: string): boolean {
  const qt = contentTokens(question);
  const at = contentTokens(answer);
  for (const p of knowledge) {
    if (p.title.size && qt.size) {
      const common = overlap(qt, p.title);
      if (common >= Math.min(2, p.title.size) && common / Math.min(qt.size, p.title.size) >= 0.8) return true;
    }
    if (at.size >= 4 && p.content.size >= 4) {
      const common = overlap(at, p.content);
      if (common / (at.size + p.content.size - common) >= 0.8) return true;
    }
  }
  return false;
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

