import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Code, type FieldError } from '../../src/contract/codes.js';
import { AppError } from '../http/errors.js';
import { databaseUnavailable } from '../db/unavailable.js';
import { fromDatabaseError } from './db-errors.js';
import { localizeEnvelope, type FieldLabeler } from '../http/lang.js';
import { fieldLabel } from '../schemas/field-labels.js';

/** Fields named by their form labels on the route the request went to (server/schemas/field-labels.ts). */
function labelerOf(req: FastifyRequest): FieldLabeler | undefined {
  const url = req.routeOptions?.url;
  const m = url ? /^\/api\/(?:admin|common)\/(.+)$/.exec(url) : null;
  if (!m) return undefined;
  return (field, lang) => fieldLabel(req.method, m[1], field, lang);
}

interface AjvIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** One `{ field, message }` per ajv issue; the field is a dotted path (`email`, `items.0.name`). */
export function fieldErrors(issues: AjvIssue[], context = ''): FieldError[] {
  return issues.map((e) => {
    const base = (e.instancePath ?? '').replace(/^\//, '').split('/').filter(Boolean).join('.');
    const extra = (e.params?.missingProperty ?? e.params?.additionalProperty) as string | undefined;
    const field = [base, extra].filter(Boolean).join('.') || context || 'body';
    return { field, message: ajvMessage(e) };
  });
}

/** An ajv issue as "english / 中文" (the English is ajv's own wording). */
export function ajvMessage(e: AjvIssue): string {
  const p = e.params ?? {};
  const en = e.message ?? 'is invalid';
  switch (e.keyword) {
    case 'required':
      return 'is required / 必填';
    case 'additionalProperties':
      return 'is not allowed / 不允许的字段';
    case 'type':
      return `${en} / 类型应为 ${String(p.type)}`;
    case 'format':
      return `${en} / 格式应为 ${String(p.format)}`;
    case 'minLength':
      return `${en} / 至少 ${String(p.limit)} 个字符`;
    case 'maxLength':
      return `${en} / 最多 ${String(p.limit)} 个字符`;
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum':
      return `${en} / 应 ${String(p.comparison)} ${String(p.limit)}`;
    case 'minItems':
      return `${en} / 至少 ${String(p.limit)} 项`;
    case 'maxItems':
      return `${en} / 最多 ${String(p.limit)} 项`;
    case 'enum':
    case 'const':
      return `${en} / 取值不在允许范围内`;
    case 'pattern':
      return `${en} / 格式不正确`;
    default:
      return `${en} / 取值无效`;
  }
}

/** Default messages the handler writes itself, in both languages. */
const NOT_FOUND_MSG = 'not found / 未找到';
const INTERNAL_MSG = 'internal error / 服务器内部错误';
const VALIDATION_MSG = 'validation failed / 参数校验失败';

/**
 * Sends an envelope without the route's response schema (so `data` is never reshaped). A refusal
 * is in the caller's language when it sent `x-lang` (server/http/lang.ts), else bilingual.
 */
export function sendEnvelope(reply: FastifyReply, status: number, code: number, msg: string, data: unknown = null) {
  const out = code === Code.OK ? { msg, data } : localizeEnvelope(reply.request, msg, data, labelerOf(reply.request));
  return reply.status(status).type('application/json; charset=utf-8').serializer(JSON.stringify).send({ code, msg: out.msg, data: out.data });
}

/** What a client can act on when Fastify refused the request before any route schema ran. */
function transportMessage(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'request body too large / 请求体过大';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported content type, send application/json / 不支持的内容类型，请发送 application/json';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'invalid JSON body / 请求体不是有效的 JSON';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'empty JSON body / 请求体为空';
    default:
      if (err.statusCode === 413) return 'request body too large / 请求体过大';
      // secure-json-parse: "Object contains forbidden prototype property"
      if (/prototype/i.test(err.message ?? '')) return 'forbidden __proto__ or constructor key / 含有被禁止的 __proto__ 或 constructor 键';
      return `${err.message} / 请求无法读取`;
  }
}

/** The one error handler: coded errors → HTTP 200, transport errors → their status, crashes → 500. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, req: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) return sendEnvelope(reply, 200, error.code, error.message, error.data);
    const err = error as FastifyError;
    if (err.validation) {
      const errors = fieldErrors(err.validation as AjvIssue[], err.validationContext);
      const msg = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
      return sendEnvelope(reply, 200, Code.VALIDATION, msg || VALIDATION_MSG, { errors });
    }
    const fromDb = fromDatabaseError(error);
    if (fromDb) return sendEnvelope(reply, 200, fromDb.code, fromDb.message, fromDb.data);
    // a multipart body the parser cannot read (cut off, no boundary, bad part headers)
    if (!err.statusCode && req.isMultipart?.() && /multipart|boundary|part|form/i.test(err.message ?? '')) {
      return sendEnvelope(reply, 200, Code.VALIDATION, `file: malformed multipart body (${err.message}) / 上传内容格式错误`, {
        errors: [{ field: 'file', message: 'malformed multipart body / 上传内容格式错误' }],
      });
    }
    const status = err.statusCode ?? 500;
    if (status === 404) return sendEnvelope(reply, 404, Code.NOT_FOUND, NOT_FOUND_MSG);
    // the request limit (server/plugins/rate-limit.ts): HTTP 429 with Retry-After, envelope 42901
    if (status === 429) return sendEnvelope(reply, 429, Code.TOO_MANY, err.message, { retry_after: Number((err as { retryAfter?: number }).retryAfter ?? 0) || null });
    if (status >= 400 && status < 500) {
      // the body could not be read at all (too large, not JSON, a forbidden __proto__ key, a
      // content type no route takes): a 40001 like any other, naming the body as its field
      const message = transportMessage(err);
      return sendEnvelope(reply, status, Code.VALIDATION, `body: ${message}`, { errors: [{ field: 'body', message }] });
    }
    // the database is away (restarting, unreachable, out of connections): not the request's
    // fault and not a crash; 503 + Retry-After so clients and load balancers try again
    if (databaseUnavailable(err)) {
      req.log.warn({ err: { message: err.message, code: err.code }, url: req.url }, 'database unavailable');
      return sendEnvelope(reply.header('retry-after', '1'), 503, Code.INTERNAL, 'the database is unavailable, try again shortly / 数据库暂不可用，请稍后重试');
    }
    // a crash: log what helps (never the request body, headers or SQL parameters), tell nothing
    req.log.error({ err: { message: err.message, code: err.code, stack: err.stack }, url: req.url }, 'request failed');
    return sendEnvelope(reply, 500, Code.INTERNAL, INTERNAL_MSG);
  });
}
