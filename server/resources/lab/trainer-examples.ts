/**
 * Training examples of a lab dataset in the chat format of the fine-tuning API: one JSON object
 * per line, `{"messages": [{"role": "system"|"user"|"assistant", "content": "…"}, …]}` with at
 * least one user and one assistant message. Pure functions.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}
export interface ChatExample {
  messages: ChatMessage[];
}

export const MAX_EXAMPLES = 5000;
export const MAX_MESSAGES = 100;
export const MAX_CONTENT = 8000;
const ROLES = ['system', 'user', 'assistant'];

export type ExamplesResult = { ok: true; examples: ChatExample[] } | { ok: false; message: string };

function toExample(v: unknown): ChatExample | string {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'must be an object with "messages"';
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'messages');
  if (extra.length) return `unknown property "${extra[0]}"`;
  if (!Array.isArray(o.messages) || o.messages.length < 2 || o.messages.length > MAX_MESSAGES) return `"messages" must be a list of 2 to ${MAX_MESSAGES} messages`;
  const messages: ChatMessage[] = [];
  for (const [i, m] of o.messages.entries()) {
    const msg = m as Record<string, unknown> | null;
    if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return `message ${i + 1} must be an object`;
    if (!ROLES.includes(msg.role as string)) return `message ${i + 1}: "role" must be system, user or assistant`;
    if (typeof msg.content !== 'string' || !msg.content.trim()) return `message ${i + 1}: "content" must be a non-empty string`;
    if (msg.content.length > MAX_CONTENT) return `message ${i + 1}: "content" is at most ${MAX_CONTENT} characters`;
    if (Object.keys(msg).some((k) => k !== 'role' && k !== 'content')) return `message ${i + 1}: only "role" and "content"`;
    messages.push({ role: msg.role as ChatMessage['role'], content: msg.content });
  }
  if (!messages.some((m) => m.role === 'user') || !messages.some((m) => m.role === 'assistant')) return 'needs a user and an assistant message';
  return { messages };
}

/** Parses chat-format JSON lines; the message names the first bad line (1-based). Empty text: no examples. */
export function parseExamples(text: string): ExamplesResult {
  const examples: ChatExample[] = [];
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
    const e = toExample(v);
    if (typeof e === 'string') return { ok: false, message: `line ${i + 1}: ${e} / 第 ${i + 1} 行格式错误（需为 {"messages": [...]}）` };
    examples.push(e);
    if (examples.length > MAX_EXAMPLES) return { ok: false, message: `at most ${MAX_EXAMPLES} examples / 最多 ${MAX_EXAMPLES} 条样本` };
  }
  return { ok: true, examples };
}

/** The examples as the JSONL file the trainer receives. */
export const examplesFile = (examples: ChatExample[]): string => examples.map((e) => JSON.stringify({ messages: e.messages })).join('\n') + '\n';
