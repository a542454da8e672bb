/**
 * A stand-in OpenAI-compatible model for run tests (the model is outside the system under test):
 * `POST /v1/chat/completions` answers after `delayMs`. A request whose model starts with `judge`
 * is a judge call: it answers `{"score": 0.8, "reason": "stand-in judge"}`. Any other model
 * answers "The stand-in model's answer." Each chat request is kept (model, the last user message,
 * the system message, and every message's role and text).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in on 127.0.0.1 is a private target: the outbound-call policy refuses it unless the
// operator allows private addresses (server/http/outbound.ts). A test file that imports a stand-in
// allows them for its process and every server it spawns (set on import, so servers spawned before
// the stand-in starts have it too), as an operator with a model server on the LAN would;
// tests/api/outbound.test.ts, which imports none, shows the refusal without it.
process.env.OUTBOUND_ALLOW_PRIVATE = '1';

export interface ModelStandIn {
  baseUrl: string;
  /** every request, with when it arrived and when its connection closed (answered or given up by the caller) */
  calls: Array<{ model: string; user: string; system: string; messages: Array<{ role: string; content: string }>; at: number; end?: number }>;
  /** with `{ gated: true }`: lets `n` more answers out (each still after `delayMs`); without a gate, answers are not held */
  release(n: number): void;
  close(): Promise<void>;
}

/**
 * `gated`: every answer is held until `release` lets it out (a test moves the run in steps it
 * has watched, a state rather than a speed).
 */
export async function startModelStandIn(delayMs: number, opts: { gated?: boolean } = {}): Promise<ModelStandIn> {
  const calls: ModelStandIn['calls'] = [];
  let allowance = opts.gated ? 0 : Infinity;
  const held: Array<() => void> = [];
  const letOut = () => {
    while (allowance > 0 && held.length) {
      allowance--;
      held.shift()?.();
    }
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as { model?: string; messages?: Array<{ role: string; content: unknown }> }) : {};
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'not found' } }));
      }
      const model = String(body.model ?? '');
      const users = (body.messages ?? []).filter((m) => m.role === 'user');
      const system = (body.messages ?? []).find((m) => m.role === 'system');
      const messages = (body.messages ?? []).map((m) => ({ role: m.role, content: String(m.content) }));
      const call: ModelStandIn['calls'][number] = { model, user: String(users.at(-1)?.content ?? ''), system: String(system?.content ?? ''), messages, at: Date.now() };
      calls.push(call);
      const text = model.startsWith('judge') ? '{"score": 0.8, "reason": "stand-in judge"}' : "The stand-in model's answer.";
      let timer: NodeJS.Timeout | undefined;
      const answer = () => {
        timer = setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              id: 'c1',
              object: 'chat.completion',
              created: 0,
              model,
              choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 },
            }),
          );
        }, delayMs);
      };
      held.push(answer);
      letOut();
      res.on('close', () => {
        if (held.includes(answer)) held.splice(held.indexOf(answer), 1); // given up while held: no answer is owed
        clearTimeout(timer);
        call.end = Date.now();
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    release(n) {
      allowance += n;
      letOut();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
