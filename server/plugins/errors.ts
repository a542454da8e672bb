import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Code, CodeMessage, type FieldError } from '../../src/contract/codes.js';
import { AppError } from '../http/errors.js';

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
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') message = 'is not allowed';
    else if (e.keyword === 'required') message = 'is required';
    return { field, message };
  });
}

/** Sends an envelope without the route's response schema (so `data` is never reshaped). */
export function sendEnvelope(reply: FastifyReply, status: number, code: number, msg: string, data: unknown = null) {
  return reply.status(status).type('application/json; charset=utf-8').serializer(JSON.stringify).send({ code, msg, data });
}

/** The one error handler: coded errors → HTTP 200, transport errors → their status, crashes → 500. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, req: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) return sendEnvelope(reply, 200, error.code, error.message, error.data);
    const err = error as FastifyError;
    if (err.validation) {
      const errors = fieldErrors(err.validation as AjvIssue[], err.validationContext);
      const msg = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
      return sendEnvelope(reply, 200, Code.VALIDATION, msg || CodeMessage[Code.VALIDATION], { errors });
    }
    const status = err.statusCode ?? 500;
    if (status === 413) return sendEnvelope(reply, 413, Code.VALIDATION, 'request body too large');
    if (status === 404) return sendEnvelope(reply, 404, Code.NOT_FOUND, 'not found');
    if (status >= 400 && status < 500) {
      return sendEnvelope(reply, status, Code.VALIDATION, err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'invalid JSON body' : err.message);
    }
    // a crash: log what helps (never the request body, headers or SQL parameters), tell nothing
    req.log.error({ err: { message: err.message, code: err.code, stack: err.stack }, url: req.url }, 'request failed');
    return sendEnvelope(reply, 500, Code.INTERNAL, CodeMessage[Code.INTERNAL]);
  });
}
