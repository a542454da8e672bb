/**
 * Dataset samples: `{ input, expected }` objects, sent either as a list (`samples`) or as JSON
 * lines (`samples_jsonl`, one object per line, blank lines ignored). Pure functions.
 * A multi-turn sample's input is the conversation: a list of `{ role: 'user' | 'assistant',
 * content }` turns ending with the customer's (user) question; the run sends the earlier turns
 * as messages before it.
 */
export interface SampleTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface Sample {
  input: string | SampleTurn[];
  expected: string;
}

export const MAX_SAMPLES = 5000;
export const MAX_INPUT = 4000;
export const MAX_TURNS = 40;

/** A sample's question (its last turn) and the turns before it. */
export function conversationOf(input: Sample['input']): { question: string; history: SampleTurn[] } {
  if (typeof input === 'string') return { question: input, history: [] };
  return { question: input.at(-1)?.content ?? '', history: input.slice(0, -1) };
}

/** A sample's input as one text (a result row's question): a conversation as "role: text" lines. */
export const inputText = (input: Sample['input']): string =>
  typeof input === 'string' ? input : input.map((t) => `${t.role}: ${t.content}`).join('\n');

/** Checks a multi-turn input; an error message, or null when it is good. */
function turnsError(turns: unknown[]): string | null {
  if (!turns.length || turns.length > MAX_TURNS) return `a conversation has 1 to ${MAX_TURNS} turns`;
  for (const t of turns) {
    const o = t as Record<string, unknown> | null;
    if (!o || typeof o !== 'object' || Array.isArray(o) || Object.keys(o).some((k) => k !== 'role' && k !== 'content')) return 'each turn is {"role", "content"}';
    if (o.role !== 'user' && o.role !== 'assistant') return 'a turn\'s "role" is "user" or "assistant"';
    if (typeof o.content !== 'string' || !o.content.trim() || o.content.length > MAX_INPUT) return `a turn's "content" is a non-empty string of at most ${MAX_INPUT} characters`;
  }
  if ((turns.at(-1) as SampleTurn).role !== 'user') return 'a conversation ends with the customer\'s ("user") question';
  return null;
}

export type ParseResult = { ok: true; samples: Sample[] } | { ok: false; message: string };

/** Checks one sample object; returns the cleaned sample or an error message. */
function toSample(v: unknown): Sample | string {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'must be an object with "input" and "expected"';
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'input' && k !== 'expected');
  if (extra.length) return `unknown property "${extra[0]}"`;
  if (o.expected !== undefined && typeof o.expected !== 'string') return '"expected" must be a string';
  const expected = (o.expected as string | undefined) ?? '';
  if (expected.length > MAX_INPUT) return `"input" and "expected" are at most ${MAX_INPUT} characters`;
  if (Array.isArray(o.input)) {
    const bad = turnsError(o.input);
    return bad ?? { input: (o.input as SampleTurn[]).map((t) => ({ role: t.role, content: t.content })), expected };
  }
  if (typeof o.input !== 'string' || !o.input.trim()) return '"input" must be a non-empty string or a list of turns';
  if (o.input.length > MAX_INPUT) return `"input" and "expected" are at most ${MAX_INPUT} characters`;
  return { input: o.input, expected };
}

/** Parses JSON lines into samples; the message names the first bad line (1-based). */
export function parseJsonl(text: string): ParseResult {
  const samples: Sample[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return { ok: false, message: `line ${i + 1}: not valid JSON / 第 ${i + 1} 行不是合法的 JSON` };
    }
    const s = toSample(v);
    if (typeof s === 'string') return { ok: false, message: `line ${i + 1}: ${s} / 第 ${i + 1} 行格式错误` };
    samples.push(s);
    if (samples.length > MAX_SAMPLES) return { ok: false, message: `at most ${MAX_SAMPLES} samples / 最多 ${MAX_SAMPLES} 条样本` };
  }
  if (!samples.length) return { ok: false, message: 'at least one sample / 至少需要一条样本' };
  return { ok: true, samples };
}

/** Checks a sample list (already shape-checked by the body schema). */
export function checkList(list: unknown[]): ParseResult {
  if (!list.length) return { ok: false, message: 'at least one sample / 至少需要一条样本' };
  const samples: Sample[] = [];
  for (let i = 0; i < list.length; i++) {
    const s = toSample(list[i]);
    if (typeof s === 'string') return { ok: false, message: `sample ${i + 1}: ${s} / 第 ${i + 1} 条样本格式错误` };
    samples.push(s);
  }
  return { ok: true, samples };
}
