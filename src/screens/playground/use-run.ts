/** One side of the playground: its turns, the one streaming now, and how to send or stop. */
import { useCallback, useRef, useState } from 'react';
import { useShell } from '../../runtime/shell.js';
import { streamPlayground, StreamRefused, type Citation, type PlaygroundBody, type ServerRef } from './stream.js';

export interface Turn {
  question: string;
  text: string;
  status: 'streaming' | 'done' | 'error';
  responder: 'builtin' | 'model' | null;
  model: string;
  /** the server answering (named by the first event; a fallback server when the first failed) */
  server: ServerRef | null;
  citations: Citation[];
  latencyMs: number | null;
  tokens: { prompt: number; completion: number } | null;
  cost: number | null;
  traceId: number | null;
  error: string;
  note: string;
}

/** The turns answered so far as chat messages (a failed or stopped-empty turn is left out); the last 20 turns at most. */
export function historyOf(turns: Turn[]): Array<{ role: 'user' | 'assistant'; content: string }> {
  return turns
    .filter((t) => t.status === 'done' && t.text.trim())
    .slice(-20)
    .flatMap((t) => [
      { role: 'user' as const, content: t.question.slice(0, 8000) },
      { role: 'assistant' as const, content: t.text.slice(0, 8000) },
    ]);
}

export function useRun() {
  const shell = useShell();
  const [turns, setTurns] = useState<Turn[]>([]);
  const turnsRef = useRef<Turn[]>(turns);
  turnsRef.current = turns;
  const abort = useRef<AbortController | null>(null);
  const patch = (p: Partial<Turn>) => setTurns((ts) => ts.map((t, i) => (i === ts.length - 1 ? { ...t, ...p } : t)));

  const send = useCallback(async (body: PlaygroundBody) => {
    abort.current?.abort();
    // the conversation so far: each answered turn as the customer's question and the reply
    body = { ...body, history: historyOf(turnsRef.current) };
    const ctl = new AbortController();
    abort.current = ctl;
    const fresh: Turn = {
      question: body.message, text: '', status: 'streaming', responder: null, model: '', server: null,
      citations: [], latencyMs: null, tokens: null, cost: null, traceId: null, error: '', note: '',
    };
    setTurns((ts) => [...ts, fresh]);
    try {
      await streamPlayground(
        shell.rawRequest(),
        body,
        (e) => {
          if (e.event === 'start') patch({ responder: e.data.responder, server: e.data.server ?? null });
          else if (e.event === 'server') patch({ server: e.data.server });
          else if (e.event === 'delta') setTurns((ts) => ts.map((t, i) => (i === ts.length - 1 ? { ...t, text: t.text + e.data.text } : t)));
          else if (e.event === 'done')
            patch({
              status: 'done', text: e.data.text, responder: e.data.responder, model: e.data.model, server: e.data.server ?? null, citations: e.data.citations,
              latencyMs: e.data.latency_ms, tokens: e.data.tokens, cost: e.data.cost ?? null, traceId: e.data.trace_id ?? null, note: e.data.note ?? '',
            });
          else if (e.event === 'error') patch({ status: 'error', error: e.data.msg });
        },
        ctl.signal,
      );
      setTurns((ts) => ts.map((t, i) => (i === ts.length - 1 && t.status === 'streaming' ? { ...t, status: 'done' } : t)));
    } catch (e) {
      if (ctl.signal.aborted) patch({ status: 'done' });
      else patch({ status: 'error', error: e instanceof StreamRefused ? e.message : String((e as Error).message ?? e) });
    }
  }, [shell]);

  const stop = useCallback(() => abort.current?.abort(), []);
  const clear = useCallback(() => setTurns([]), []);
  const last = turns.at(-1) ?? null;
  return { turns, last, send, stop, clear, busy: last?.status === 'streaming' };
}
