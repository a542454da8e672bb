/**
 * Envelope codes shared by client and server. Every reply is `{ code, msg, data }`;
 * business outcomes travel with HTTP 200 and one of these codes.
 */
export const Code = {
  OK: 10000,
  NOT_LOGGED_IN: 20001,
  VALIDATION: 40001,
  FORBIDDEN: 40003,
  NOT_FOUND: 40004,
  CONFLICT: 40009,
  TOO_MANY: 42901,
  INTERNAL: 50000,
  /** an outside service the request depends on (a model server) failed; `data` says how */
  UPSTREAM: 50200,
} as const;

export type CodeValue = (typeof Code)[keyof typeof Code];

/** Default message per code (English; the client localises by code where it shows one). */
export const CodeMessage: Record<CodeValue, string> = {
  10000: 'ok',
  20001: 'not logged in',
  40001: 'validation failed',
  40003: 'forbidden',
  40004: 'not found',
  40009: 'conflict',
  42901: 'too many attempts, try again later',
  50000: 'internal error',
  50200: 'an outside service failed',
};

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** One entry of `data.errors` on a 40001 reply. `field` is a dotted path into the body or query. */
export interface FieldError {
  field: string;
  message: string;
}

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  page_size: number;
  /** true when `total` is an estimate (large tables), see docs/api.md */
  total_estimated?: boolean;
}

export const DEFAULT_PAGE_SIZE = 10;
export const MAIL_ACCOUNT_PAGE_SIZE = 1000;
export const USER_SEARCH_LIMIT = 100;
