/**
 * A small OpenAI-compatible HTTP server for tests (the model is outside the system under test).
 * What it does depends on the model named in the request:
 * - `ok-<label>`: answers "answer from <label>" (non-streamed, or streamed as SSE chunks word by
 *   word with a final usage chunk when `stream_options.include_usage`);
 * - `error-<label>`: HTTP 500 whose message quotes the bearer token (as some servers do with a
 *   bad key), so tests can prove the console masks it;
 * - `slow-<label>`: never answers (the caller's timeout must fire);
 * - `break-<label>`: streams two words, then drops the connection;
 * - `vision-<label>`: reads images — when the last user message holds an `image_url` part
 *   (a `data:image/...;base64,` URL), answers (non-streamed) with the JSON of VISION_READING
 *   (`<label>` in its product name); without an image, "no image received".
 * `POST /v1/embeddings`: an 8-dimensional vector per input, from the text's characters; with
 *   `opts.embed`, the vector that function gives for (text, model), an HTTP 500 when it gives
 *   'error' for any input, no answer when it gives 'hang' (hybrid.test.ts).
 * Every request is kept in `requests` (path, authorization header, body).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in on 127.0.0.1 is a private target: the outbound-call policy refuses it unless the
// operator allows private addresses (server/http/outbound.ts). A test file that imports a stand-in
// allows them for its process and every server it spawns (set on import, so servers spawned before
// the stand-in starts have it too), as an operator with a model server on the LAN would;
// tests/api/outbound.test.ts, which imports none, shows the refusal without it.
process.env.OUTBOUND_ALLOW_PRIVATE = '1';

export interface FakeRequest {
  path: string;
  authorization: string;
  body: Record<string, any>;
}

export interface FakeOpenAI {
  /** e.g. http://127.0.0.1:1234/v1 */
  baseUrl: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

/** what a `vision-*` model "reads" from any image it is sent */
export const VISION_READING = {
  text: '夏季新品 T-SHIRT\nSIZE M · ¥99',
  attributes: { product: 'T-shirt', brand: null, size: 'M', colour: 'red', price: '¥99', material: 'cotton', other: { sleeve: 'short' } },
};

const hasImage = (body: Record<string, any>): boolean =>
  Array.isArray(body.messages) &&
  body.messages.some((m: any) => Array.isArray(m?.content) && m.content.some((p: any) => p?.type === 'image_url' && /^data:image\/[a-z]+;base64,/.test(String(p.image_url?.url ?? ''))));

const vector = (text: string) => Array.from({ length: 8 }, (_, i) => ((text.charCodeAt(i % Math.max(1, text.length)) || 0) % 17) / 17);

/** a test's own embeddings: a vector, or 'error' (HTTP 500) / 'hang' (no answer) for the whole call */
export type FakeEmbedder = (text: string, model: string) => number[] | 'error' | 'hang';

export async function startFakeOpenAI(opts: { wordDelayMs?: number; embed?: FakeEmbedder } = {}): Promise<FakeOpenAI> {
  const requests: FakeRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, any>) : {};
      const authorization = String(req.headers.authorization ?? '');
      requests.push({ path: req.url ?? '', authorization, body });
      const json = (status: number, data: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(data));
      };
      if (req.url === '/v1/embeddings') {
        const input: string[] = Array.isArray(body.input) ? body.input : [body.input];
        const own = opts.embed ? input.map((t) => opts.embed!(String(t), String(body.model ?? ''))) : null;
        if (own?.includes('hang')) {
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        }
        if (own?.includes('error')) return json(500, { error: { message: 'embeddings exploded', type: 'server_error' } });
        return json(200, {
          object: 'list',
          model: body.model,
          data: input.map((t, index) => ({ object: 'embedding', index, embedding: own ? own[index] : vector(String(t)) })),
          usage: { prompt_tokens: input.join(' ').length, total_tokens: input.join(' ').length },
        });
      }
      if (req.url !== '/v1/chat/completions') return json(404, { error: { message: 'not found' } });
      const model = String(body.model ?? '');
      const [kind, label = ''] = model.split(/-(.*)/s);
      if (kind === 'slow') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (kind === 'error') {
        return json(500, { error: { message: `upstream exploded while using ${authorization.replace(/^Bearer /, '')}`, type: 'server_error' } });
      }
      if (kind === 'vision' && !body.stream) {
        const content = hasImage(body) ? JSON.stringify({ ...VISION_READING, attributes: { ...VISION_READING.attributes, product: `${label} T-shirt` } }) : 'no image received';
        return json(200, {
          id: 'cmpl-v',
          object: 'chat.completion',
          created: 0,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 812, completion_tokens: 64, total_tokens: 876 },
        });
      }
      const text = `answer from ${label}`;
      const usage = { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 };
      if (!body.stream) {
        return json(200, {
          id: 'cmpl-1',
          object: 'chat.completion',
          created: 0,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage,
        });
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const words = text.split(/(?= )/);
      const chunk = (delta: object, extra: object = {}) =>
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
      let i = 0;
      const next = () => {
        if (kind === 'break' && i === 2) return res.destroy();
        if (i < words.length) {
          res.write(chunk({ content: words[i++] }));
          return setTimeout(next, opts.wordDelayMs ?? 5);
        }
        if (body.stream_options?.include_usage) {
          res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model, choices: [], usage })}\n\n`);
        }
        res.end('data: [DONE]\n\n');
      };
      res.write(chunk({ role: 'assistant', content: '' }));
      next();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
