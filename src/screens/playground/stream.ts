/**
 * Reads `POST prompt/playground-stream` (Server-Sent Events over a POST reply) with fetch: the
 * console's HTTP port answers whole envelopes only. A refusal before the stream (40001, 40003,
 * 20001) comes back as a JSON envelope and is thrown as a StreamRefused with its message.
 */
import type { Citation, PlaygroundDone, ServerRef } from '../../contract/replies/ai.js';

/** the events' payloads: declared once, src/contract/replies/ai.ts (the server writes them) */
export type { Citation, ServerRef };
export type DoneEvent = PlaygroundDone;

export type PlaygroundEvent =
  | { event: 'start'; data: { responder: 'builtin' | 'model'; server: ServerRef | null } }
  | { event: 'server'; data: { server: ServerRef; attempt: number } }
  | { event: 'delta'; data: { text: string } }
  | { event: 'done'; data: DoneEvent }
  | { event: 'error'; data: { code: number; msg: string } };

export class StreamRefused extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface PlaygroundBody {
  shop_id: number;
  message: string;
  channel: 'chat' | 'email';
  assistant_id: number | null;
  prompt_id: number | null;
  model_server_id: number | null;
  /** no server chosen: the shop and channel's model strategy (traffic split, fallback server) */
  use_strategy: boolean;
  temperature: number | null;
  top_p: number | null;
  max_tokens: number | null;
  /** the conversation so far on this side (oldest first), sent to the model before the question */
  history?: Array<{ role: 'user' | 'assistant'; content: string }>;
}

/** Splits an SSE text into complete messages; returns them and the unfinished rest. */
export function parseSse(buffer: string): { events: PlaygroundEvent[]; rest: string } {
  const parts = buffer.split('\n\n');
  const rest = parts.pop() ?? '';
  const events: PlaygroundEvent[] = [];
  for (const part of parts) {
    let event = 'message';
    const data: string[] = [];
    for (const line of part.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length) events.push({ event, data: JSON.parse(data.join('\n')) } as PlaygroundEvent);
  }
  return { events, rest };
}

/** `raw`: the API base URL and the session's headers (the shell's `rawRequest()`, src/runtime/shell.ts). */
export async function streamPlayground(
  raw: { base: string; headers: Record<string, string> },
  body: PlaygroundBody,
  onEvent: (e: PlaygroundEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = { ...raw.headers, 'content-type': 'application/json', accept: 'text/event-stream' };
  const res = await fetch(`${raw.base}admin/prompt/playground-stream`, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'include', signal });
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream') || !res.body) {
    const env = (await res.json().catch(() => null)) as { code?: number; msg?: string } | null;
    throw new StreamRefused(env?.code ?? -1, env?.msg ?? `HTTP ${res.status}`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const { events, rest } = parseSse(buffer + value);
    buffer = rest;
    for (const e of events) onEvent(e);
  }
}
