/**
 * The playground (scriptManage/playground): its pickers' options and its streamed answer. Every
 * answer is traced (server/ai/trace.ts); the `done` event carries the trace id and the cost.
 */
import { PassThrough } from 'node:stream';
import { answerQuestion, type AnswerInput, type AnswerResult } from '../../ai/answer.js';
import { listModelServers } from '../../ai/gateway/index.js';
import { writeTrace } from '../../ai/trace.js';
import { AppError, invalid } from '../../http/errors.js';
import { Type } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { PlaygroundOptionsReply, type PlaygroundDone, type PlaygroundOptions } from '../../../src/contract/replies/ai.js';
import { Code } from '../../../src/contract/codes.js';
import { CHANNELS } from '../enums.js';
import { ID } from '../engine/schemas.js';
import { check } from '../engine/validate.js';
import { SK } from '../sessions/keys.js';
import { FileReply } from '../../http/typebox.js';

/** What the playground's pickers offer (one call; the playground key may not read the assistant pages). */
export const playgroundOptionsRoute: RouteDef = route({
  method: 'GET',
  path: 'prompt/playground-options',
  access: { permission: SK.playground },
  summary: 'Assistants, prompts and enabled model servers (id and name) for the playground',
  query: Type.Object({}, { additionalProperties: false }),
  reply: PlaygroundOptionsReply,
  handler: async ({ db }) => {
    const assistants = await db.query<PlaygroundOptions['assistants'][number]>(
      `SELECT id, name, shop_id, channel, model_server_id FROM chat_assistant WHERE status = 1 ORDER BY id DESC LIMIT 500`,
    );
    const prompts = await db.query<PlaygroundOptions['prompts'][number]>(`SELECT id, name, model_server_id FROM prompt ORDER BY id DESC LIMIT 500`);
    const servers = await listModelServers(db, { enabledOnly: true });
    return { assistants: assistants.rows, prompts: prompts.rows, model_servers: servers.map((s) => ({ id: s.id, name: `${s.name} (${s.model})` })) };
  },
});

export interface PlaygroundInput {
  shop_id: number;
  message: string;
  assistant_id?: number | null;
  prompt_id?: number | null;
  /** none: the built-in responder (or the strategy, with use_strategy) */
  model_server_id?: number | null;
  /** no server chosen: the shop and channel's model strategy answers (traffic split, fallback server) */
  use_strategy?: boolean;
  temperature?: number | null;
  top_p?: number | null;
  max_tokens?: number | null;
  channel?: 'chat' | 'email';
  /** the conversation so far (oldest first): the model gets it as messages before the question */
  history?: Array<{ role: 'user' | 'assistant'; content: string }>;
}

const NULL_ID = { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 };
export const PLAYGROUND_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['shop_id', 'message'],
  properties: {
    shop_id: ID,
    message: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S' },
    assistant_id: NULL_ID,
    prompt_id: NULL_ID,
    model_server_id: NULL_ID,
    use_strategy: { type: 'boolean' },
    temperature: { type: ['number', 'null'], minimum: 0, maximum: 2 },
    top_p: { type: ['number', 'null'], exclusiveMinimum: 0, maximum: 1 },
    max_tokens: { type: ['integer', 'null'], minimum: 1, maximum: 200000 },
    channel: { type: 'string', enum: [...CHANNELS], default: 'chat' },
    history: {
      type: 'array',
      maxItems: 40,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['role', 'content'],
        properties: { role: { type: 'string', enum: ['user', 'assistant'] }, content: { type: 'string', minLength: 1, maxLength: 8000 } },
      },
    },
  },
};

/** `event: name` + `data: json` (one SSE message). */
const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** The `done` event: the answer, who gave it, what it cited, what it cost, its trace. */
/** the `done` event (its type: src/contract/replies/ai.ts, which the console reads) */
export function doneEvent(r: AnswerResult, traceId: number | null): PlaygroundDone {
  return {
    text: r.text,
    responder: r.responder,
    model: r.model,
    /** the server that answered (a strategy's fallback server when the first failed); null: none did */
    server: r.responder === 'model' && !r.modelFailed ? r.trace.server : null,
    citations: r.citations,
    latency_ms: r.latencyMs,
    tokens: r.tokens,
    cost: r.trace.cost,
    sampling: r.trace.sampling,
    trace_id: traceId,
    /** why a model was asked for and another answer came (every model failed, a fallback reply) */
    note: r.note ?? '',
  };
}

/**
 * `POST prompt/playground-stream`: the playground's answer as Server-Sent Events over the POST
 * reply (the client reads it with fetch): `start` {responder, server} — the server the first
 * attempt goes to, or `builtin` when no model is asked —, `server` {server, attempt} when a
 * strategy's fallback server takes over, `delta` {text} as the model streams (the built-in
 * responder sends its answer as one delta), then `done` {text, responder, model, server,
 * citations, latency_ms, tokens, cost, sampling, trace_id, note} or `error` {code, msg}. Refused input is a normal JSON
 * envelope (40001) before any event. Closing the connection cancels the model call.
 */
export const playgroundRoute: RouteDef = {
  method: 'POST',
  path: 'prompt/playground-stream',
  access: { permission: SK.playground },
  summary: 'Playground answer, streamed (text/event-stream: start, delta…, done | error)',
  body: PLAYGROUND_BODY,
  reply: FileReply('text/event-stream', 'Server-Sent Events: start, delta…, then done or error'),
  raw: 'stream',
  handler: async (ctx) => {
    const b = check<PlaygroundInput>(PLAYGROUND_BODY, { ...((ctx.req.body as object) ?? {}) });
    const exists = async (table: string, id: number | null | undefined, field: string) => {
      if (!id) return null;
      const r = await ctx.db.query<{ content?: string; enabled?: boolean }>(`SELECT * FROM ${table} WHERE id = $1`, [id]);
      if (!r.rows[0]) throw invalid([{ field, message: `${id} does not exist / 不存在` }]);
      return r.rows[0];
    };
    await exists('shop', b.shop_id, 'shop_id');
    await exists('chat_assistant', b.assistant_id, 'assistant_id');
    const p = await exists('prompt', b.prompt_id, 'prompt_id');
    const server = await exists('config_model_server', b.model_server_id, 'model_server_id');
    if (server && !server.enabled) throw invalid([{ field: 'model_server_id', message: 'this model server is disabled / 该模型服务已停用' }]);

    const out = new PassThrough();
    const abort = new AbortController();
    ctx.reply.raw.on('close', () => {
      if (!ctx.reply.raw.writableFinished) abort.abort();
    });
    ctx.reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-cache, no-transform').header('x-accel-buffering', 'no');
    ctx.reply.send(out);
    // `start` names who answers: the server the first attempt goes to, else the built-in responder
    let started = false;
    const start = (responder: 'model' | 'builtin', server: { id: number; name: string; model: string } | null) => {
      if (started) return;
      started = true;
      out.write(sse('start', { responder, server }));
    };
    let streamed = false;
    const input: AnswerInput & { onDelta(text: string): void } = {
      question: b.message,
      history: b.history ?? [],
      shopId: b.shop_id,
      assistantId: b.assistant_id ?? null,
      prompt: p?.content ?? null,
      modelServerId: b.model_server_id ?? null,
      useStrategy: !b.model_server_id && b.use_strategy === true,
      temperature: b.temperature ?? null,
      topP: b.top_p ?? null,
      maxTokens: b.max_tokens ?? null,
      channel: b.channel ?? 'chat',
      signal: abort.signal,
      onServer: (server, attempt) => {
        if (attempt === 1 || !started) start('model', server);
        else out.write(sse('server', { server, attempt }));
      },
      // answer.ts hands it to the gateway (chat with stream: true) when a model answers
      onDelta: (text) => {
        streamed = true;
        out.write(sse('delta', { text }));
      },
    };
    try {
      const r = await answerQuestion(ctx.db, input);
      start(r.responder, null);
      if (!streamed && r.text) out.write(sse('delta', { text: r.text }));
      const traceId = await writeTrace(
        ctx.db,
        { kind: 'playground', question: b.message, shopId: b.shop_id, channel: b.channel ?? 'chat', assistantId: b.assistant_id ?? null, answer: r, createdBy: ctx.user?.id ?? null },
        ctx.req.log,
      );
      out.write(sse('done', doneEvent(r, traceId)));
    } catch (e) {
      const err = e instanceof AppError ? { code: e.code, msg: e.message } : { code: Code.INTERNAL, msg: 'the answer failed / 回答失败' };
      if (!(e instanceof AppError)) ctx.req.log.error({ err: { message: (e as Error).message, stack: (e as Error).stack } }, 'playground answer failed');
      out.write(sse('error', err));
    } finally {
      out.end();
    }
  },
};
