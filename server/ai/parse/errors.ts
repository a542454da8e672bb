/**
 * Why a document could not be read. `reason` is a stable code (stored, tested, shown as a tag);
 * the message is bilingual ("english / 中文") and says what to do about it.
 */
export const PARSE_REASONS = ['too_large', 'bomb', 'encrypted', 'no_text', 'corrupt', 'timeout', 'unsupported'] as const;
export type ParseReason = (typeof PARSE_REASONS)[number];

export class ParseError extends Error {
  override readonly name = 'ParseError';
  constructor(
    readonly reason: ParseReason,
    message: string,
  ) {
    super(message);
  }
}

export const isParseError = (e: unknown): e is ParseError => e instanceof ParseError;

const MB = 1024 * 1024;
export const mb = (n: number) => `${Math.round((n / MB) * 10) / 10} MB`;

/** The message of each reason, [english, 中文]; the detail of a case goes in brackets after it. */
const MESSAGES: Record<ParseReason, [string, string]> = {
  too_large: ['the document is too large to read', '文档过大，无法读取'],
  bomb: ['refused as a possible zip or XML bomb: it would expand far beyond its size', '疑似压缩炸弹或 XML 炸弹（解压或展开后远大于原文件），已拒绝'],
  encrypted: ['the document is password-protected; remove the password and upload it again', '文档已加密，请去除密码后重新上传'],
  no_text: ['no text found in the document', '文档中没有可提取的文字'],
  corrupt: ['the file cannot be read; it may be damaged or not of its stated type', '文件无法读取，可能已损坏或类型不符'],
  timeout: ['reading the document took too long', '读取文档超时，已停止'],
  unsupported: ['unsupported document', '不支持的文档类型'],
};

/** `detail` says what was found (english, with figures); `zh` is its Chinese, when one helps. */
export function parseError(reason: ParseReason, detail: string, zh?: string): ParseError {
  const [en, cn] = MESSAGES[reason];
  return new ParseError(reason, `${en} (${detail}) / ${cn}${zh ? `（${zh}）` : ''}`);
}

/** A ParseError as it crosses the worker boundary (class instances do not survive postMessage). */
export interface ParseErrorData {
  reason: ParseReason;
  message: string;
}

export const toData = (e: ParseError): ParseErrorData => ({ reason: e.reason, message: e.message });
export const fromData = (d: ParseErrorData) => new ParseError(d.reason, d.message);
