/**
 * The numbers a call task calls, as the task form takes them: one per line, `phone` or
 * `phone, customer name` (a comma, a Chinese comma or a tab separates them). `syncTargets`
 * keeps the task's call_target rows (one per number, with its progress) in step with the list.
 */
import type { Queryable } from '../../../db/db.js';
import { PHONE_PATTERN } from '../keys.js';

export const MAX_CALLEES = 2000;
const PHONE = new RegExp(PHONE_PATTERN);

export interface Callee {
  phone: string;
  name: string;
}

/** The callees of a text, or the problems (`line N: …`), never both. */
export function parseCallees(text: string): { callees: Callee[]; problems: string[] } {
  const callees: Callee[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const [phonePart, ...rest] = line.split(/[,，\t]/);
    const phone = phonePart.trim();
    const name = rest.join(',').trim();
    const n = i + 1;
    if (!PHONE.test(phone)) problems.push(`line ${n}: "${phone}" is not a phone number / 第 ${n} 行不是电话号码`);
    else if (name.length > 100) problems.push(`line ${n}: the name is longer than 100 characters / 第 ${n} 行姓名超过 100 个字符`);
    else {
      const key = phone.replace(/[\s-]/g, '');
      const first = seen.get(key);
      if (first) problems.push(`line ${n}: ${phone} is already on line ${first} / 第 ${n} 行号码与第 ${first} 行重复`);
      else {
        seen.set(key, n);
        callees.push({ phone, name });
      }
    }
  });
  if (callees.length > MAX_CALLEES) problems.push(`at most ${MAX_CALLEES} numbers per task / 每个任务最多 ${MAX_CALLEES} 个号码`);
  return problems.length ? { callees: [], problems } : { callees, problems };
}

/**
 * Makes the task's targets match `callees`: new numbers are added (waiting), names updated;
 * a number taken off the list goes if it was never called, else it is closed as `removed`.
 */
export async function syncTargets(q: Queryable, taskId: number, callees: Callee[]): Promise<void> {
  const phones = callees.map((c) => c.phone);
  await q.query(`DELETE FROM call_target WHERE task_id = $1 AND attempts = 0 AND state = 'waiting' AND NOT (phone = ANY($2::text[]))`, [taskId, phones]);
  await q.query(
    `UPDATE call_target SET state = 'done', outcome = 'removed', next_at = NULL
      WHERE task_id = $1 AND state = 'waiting' AND NOT (phone = ANY($2::text[]))`,
    [taskId, phones],
  );
  if (!callees.length) return;
  await q.query(
    `INSERT INTO call_target (task_id, phone, customer_name)
     SELECT $1, c.phone, c.name FROM unnest($2::text[], $3::text[]) AS c(phone, name)
     ON CONFLICT (task_id, phone) DO UPDATE SET customer_name = EXCLUDED.customer_name,
       state = CASE WHEN call_target.outcome = 'removed' THEN 'waiting' ELSE call_target.state END,
       outcome = CASE WHEN call_target.outcome = 'removed' THEN NULL ELSE call_target.outcome END`,
    [taskId, phones, callees.map((c) => c.name)],
  );
}
