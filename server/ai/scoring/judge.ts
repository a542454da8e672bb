/**
 * The LLM judge, as an injected function: `judge(question, expected, answer)` → a score 0…1, a
 * reason and the tokens it cost. The cascade calls it only where the exit code says a semantic
 * score is needed and no cheap check already passed. Which model judges is the task's judge
 * model server; `JudgeSetup` says whether a judge can run and, when not, why.
 */
export interface JudgeVerdict {
  score: number;
  reason: string;
  tokens: number;
  /** at the judge server's prices (0: not priced) */
  cost?: number;
}

export type JudgeFn = (question: string, expected: string, answer: string, signal?: AbortSignal) => Promise<JudgeVerdict>;

export type JudgeSetup = { available: true; judge: JudgeFn; model: string } | { available: false; reason: string };

export const NO_JUDGE: JudgeSetup = { available: false, reason: 'no judge model configured / 未配置评判模型' };

/** The judge's instruction when a task sets none (a task's own replaces it: `judge_prompt`). */
export const DEFAULT_JUDGE_PROMPT =
  'You grade customer-service answers. Compare the ANSWER with the EXPECTED answer for the QUESTION: ' +
  'does the answer give the same facts (numbers, conditions, yes/no) as the expected one? Wording does not matter. ' +
  'Reply with only a JSON object: {"score": <number from 0 to 1>, "reason": "<one short sentence>"}.';

/**
 * What the judge model gets: the instruction (the task's, else the default) as the system
 * message, then the question, the expected answer and the answer. The reply must be one JSON
 * object with a numeric `score` whatever the instruction says (parseVerdict).
 */
export function judgePrompt(question: string, expected: string, answer: string, instruction?: string | null): Array<{ role: 'system' | 'user'; content: string }> {
  return [
    { role: 'system', content: instruction?.trim() || DEFAULT_JUDGE_PROMPT },
    { role: 'user', content: `QUESTION:\n${question}\n\nEXPECTED:\n${expected}\n\nANSWER:\n${answer}` },
  ];
}

/** Reads the judge's reply: the first JSON object with a numeric `score` (clamped to 0…1). */
export function parseVerdict(text: string): { score: number; reason: string } {
  const m = /\{[\s\S]*\}/u.exec(text);
  if (m) {
    try {
      const o = JSON.parse(m[0]) as { score?: unknown; reason?: unknown };
      const s = typeof o.score === 'number' ? o.score : Number(o.score);
      if (Number.isFinite(s)) {
        return { score: Math.min(1, Math.max(0, s > 1 && s <= 100 ? s / 100 : s)), reason: typeof o.reason === 'string' ? o.reason.slice(0, 500) : '' };
      }
    } catch {
      /* not JSON: below */
    }
  }
  throw new Error(`the judge model did not reply with a score (${text.slice(0, 120)}) / 评判模型未返回分数`);
}
