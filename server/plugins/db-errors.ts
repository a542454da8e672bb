import { Code } from '../../src/contract/codes.js';
import { AppError, invalid } from '../http/errors.js';

/** What PostgreSQL (and PGlite) put on an error: SQLSTATE and, for some, the column or key. */
interface PgError {
  code?: string;
  column?: string;
  detail?: string;
  constraint?: string;
  table?: string;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** `Key (shop_id)=(12) is not present …` → `shop_id` */
const keyOf = (detail = ''): string | undefined => /Key \(([^)]+)\)=/.exec(detail)?.[1]?.split(',')[0]?.trim();

/**
 * Turns a database refusal of bad input into the envelope a client can act on (the request's
 * transaction has rolled back, so nothing was written). Returns null for anything else — a
 * real fault, which stays a 500 and is logged.
 */
export function fromDatabaseError(err: unknown): AppError | null {
  const e = err as PgError;
  if (!e || typeof e.code !== 'string' || !SQLSTATE.test(e.code)) return null;
  const field = e.column ?? keyOf(e.detail) ?? 'body';
  switch (e.code) {
    case '22021': // character_not_in_repertoire (a NUL byte in text)
    case '22P05': // untranslatable_character
    case '22P02': // invalid_text_representation
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
    case '22003': // numeric_value_out_of_range
    case '22001': // string_data_right_truncation
    case '22023': // invalid_parameter_value
    case '2201B': // invalid_regular_expression
    case '54000': // program_limit_exceeded (e.g. a tsvector or index row too big)
      return invalid([{ field, message: 'is not a value the database can store (bad characters, out of range or too long) / 值无效（字符、范围或长度不被接受）' }]);
    case '23502': // not_null_violation
      return invalid([{ field, message: 'is required / 必填' }]);
    case '23514': // check_violation
      return invalid([{ field, message: 'is not an allowed value / 取值不被允许' }]);
    case '23503': // foreign_key_violation
      if ((e.detail ?? '').includes('still referenced')) {
        return new AppError(Code.CONFLICT, 'it is still in use by other records; remove those first / 仍被其他数据使用，请先移除相关数据', {
          errors: [{ field: 'id', message: `still referenced by ${e.table ?? 'other records'} / 仍被其他数据引用` }],
        });
      }
      return invalid([{ field, message: 'refers to something that does not exist / 引用的数据不存在' }]);
    case '23505': // unique_violation
      return new AppError(Code.CONFLICT, `${field}: already exists / 已存在`, { errors: [{ field, message: 'already exists / 已存在' }] });
    default:
      return null;
  }
}
