import { Code, CodeMessage, type CodeValue, type FieldError } from '../../src/contract/codes.js';

/** A coded business error: becomes `{ code, msg, data }` with HTTP 200. */
export class AppError extends Error {
  constructor(
    readonly code: CodeValue,
    message?: string,
    readonly data: unknown = null,
  ) {
    super(message ?? CodeMessage[code]);
  }
}

export const notFound = (what = 'resource') => new AppError(Code.NOT_FOUND, `${what} not found / 记录不存在`);
export const conflict = (msg: string) => new AppError(Code.CONFLICT, msg);
export const forbidden = () => new AppError(Code.FORBIDDEN);
export const invalid = (errors: FieldError[]) =>
  new AppError(Code.VALIDATION, errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });

/**
 * A coded error whose transaction still COMMITS (the normal AppError rolls back). Used where
 * a refusal must leave a trace, e.g. a failed login records the failure and its audit row.
 */
export class CommittedError extends AppError {}
