/**
 * What auto-learn keeps (auto-learn.ts): a customer message and the agent's reply are judged as
 * reusable knowledge or not — a real question (not a greeting or a hand-off request), with a
 * deterministic confidence — and a candidate a shop's policies already cover is left out.
 */
import { createHash } from 'node:crypto';

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

interface Verdict {
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

/** A shop's policies as token sets (titles, and the start of each content). */
export type Knowledge = Array<{ title: Set<string>; content: Set<string> }>;

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

