import type { Queryable } from '../../db/db.js';
import type { Usage } from './types.js';

export interface CallRecord {
  serverId: number | null;
  serverName: string;
  model: string;
  kind: 'chat' | 'embed' | 'test';
  shopId?: number | null;
  channel?: string | null;
  sessionKey?: string;
  strategyId?: number | null;
  divertId?: number | null;
  attempt?: number;
  stream?: boolean;
  outcome: 'ok' | 'error' | 'timeout' | 'aborted' | 'fallback';
  /** already free of keys (servers.ts classify) */
  error?: string;
  latencyMs: number;
  usage?: Usage;
  /** what the call cost (costOf) */
  cost?: number;
}

/** What tokens cost at a server's prices per million prompt (input) and completion (output) tokens. */
export function costOf(usage: Pick<Usage, 'prompt_tokens' | 'completion_tokens'> | null | undefined, s: { priceInput: number; priceOutput: number }): number {
  if (!usage) return 0;
  const c = (usage.prompt_tokens * s.priceInput + usage.completion_tokens * s.priceOutput) / 1_000_000;
  return Math.round(c * 1e6) / 1e6;
}

/** One model_call row. A failure to record is logged by the caller's logger and never fails the call. */
export async function recordCall(db: Queryable, c: CallRecord, log?: { warn(obj: object, msg?: string): void }): Promise<void> {
  try {
    await db.query(
      `INSERT INTO model_call (model_server_id, server_name, model, kind, shop_id, channel, session_key, strategy_id, divert_id,
         attempt, stream, outcome, error, latency_ms, prompt_tokens, completion_tokens, total_tokens, cost)
       VALUES ($1, $2, $3, $4, (SELECT id FROM shop WHERE id = $5), $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        c.serverId,
        c.serverName.slice(0, 100),
        c.model.slice(0, 100),
        c.kind,
        c.shopId ?? null,
        c.channel ?? null,
        (c.sessionKey ?? '').slice(0, 200),
        c.strategyId ?? null,
        c.divertId ?? null,
        c.attempt ?? 1,
        c.stream ?? false,
        c.outcome,
        (c.error ?? '').slice(0, 1000),
        Math.max(0, Math.round(c.latencyMs)),
        c.usage?.prompt_tokens ?? 0,
        c.usage?.completion_tokens ?? 0,
        c.usage?.total_tokens ?? 0,
        c.cost ?? 0,
      ],
    );
  } catch (e) {
    log?.warn({ err: { message: (e as Error).message } }, 'model_call not recorded');
  }
}

/** About 4 characters a token (CJK: one a token) when a server reports no usage. */
export function estimateUsage(promptText: string, completion: string): Usage {
  const count = (s: string) => {
    const cjk = (s.match(/[\u3000-\u9fff\uac00-\ud7af]/g) ?? []).length;
    return cjk + Math.ceil((s.length - cjk) / 4);
  };
  const p = count(promptText);
  const c = count(completion);
  return { prompt_tokens: p, completion_tokens: c, total_tokens: p + c, estimated: true };
}
