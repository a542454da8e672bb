/**
 * The judge of a run: the task's judge model server called through the model gateway's
 * `chat()`, with the prompt of judge.ts (the task's own instruction, else the default); unavailable (with the reason) when the task names no
 * judge or its server is gone or disabled.
 */
import type { Queryable } from '../../db/db.js';
import { chat } from '../gateway/index.js';
import { NO_JUDGE, judgePrompt, parseVerdict, type JudgeSetup } from './judge.js';

export async function judgeSetup(db: Queryable, modelServerId: number | null | undefined, instruction?: string | null): Promise<JudgeSetup> {
  if (modelServerId === null || modelServerId === undefined) return NO_JUDGE;
  const r = await db.query<{ name: string; model: string; enabled: boolean }>('SELECT name, model, enabled FROM config_model_server WHERE id = $1', [modelServerId]);
  const s = r.rows[0];
  if (!s) return { available: false, reason: `the judge model server #${modelServerId} no longer exists / 评判模型服务已不存在` };
  if (!s.enabled) return { available: false, reason: `the judge model server "${s.name}" is disabled / 评判模型服务已停用` };
  return {
    available: true,
    model: `${s.name} (${s.model})`,
    judge: async (question, expected, answer, signal) => {
      const res = await chat({ db, messages: judgePrompt(question, expected, answer, instruction), modelServerId, temperature: 0, maxTokens: 200, signal });
      if (res.outcome !== 'ok') throw new Error(res.error || `judge call ${res.outcome}`);
      const v = parseVerdict(res.text);
      return { ...v, tokens: res.usage.total_tokens, cost: res.cost };
    },
  };
}
