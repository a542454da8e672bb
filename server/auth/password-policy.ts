/**
 * The policy for NEW passwords (account create, password change, reset with a given password),
 * after ASVS 5.0 V6.2: at least 12 characters (src/contract/password.ts), no composition rules,
 * and refused when it
 * - contains the account's email or the email's local part (context-specific words, V6.2.11);
 * - is a common password (V6.2.4): the 49,000-entry list of @zxcvbn-ts/language-common
 *   (compared case-insensitively, also with a leading or trailing run of digits and symbols
 *   taken off, so `Password2026!` counts as `password`), or a single short unit repeated
 *   (`aaaaaaaaaaaa`, `abcabcabcabc`) or a straight run (`abcdefghijkl`, `1234567890123`).
 * Existing passwords are never checked again: sign-in takes whatever is stored.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../src/contract/password.js';
import { invalid } from '../http/errors.js';

let common: Promise<ReadonlySet<string>> | null = null;

/** The common-password list, loaded on first use (about half a second, 12 MB) and kept. */
export function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())));
  return common;
}

/** `password1!` → `password`; `2026password` → `password` (the forms guessing rules try first). */
const stripped = (p: string): string[] => {
  const out = [p.replace(/\P{L}+$/u, ''), p.replace(/^\P{L}+/u, ''), p.replace(/^\P{L}+|\P{L}+$/gu, '')];
  return out.filter((x) => x.length >= 4 && x !== p);
};

/** one unit of 1–4 characters repeated (`aaaa…`, `abab…`, `12341234…`), a partial unit at the end allowed */
function repeated(p: string): boolean {
  const chars = [...p];
  for (let n = 1; n <= 4 && n * 2 <= chars.length; n++) {
    if (chars.every((c, i) => c === chars[i % n])) return true;
  }
  return false;
}

/** every next character one up (or one down) from the last: `abcdef…`, `98765…`, `7890123…` */
function straightRun(p: string): boolean {
  const step = (a: string, b: string): number => {
    if (/\d/.test(a) && /\d/.test(b)) return (Number(b) - Number(a) + 10) % 10 === 1 ? 1 : (Number(a) - Number(b) + 10) % 10 === 1 ? -1 : 0;
    return b.charCodeAt(0) - a.charCodeAt(0);
  };
  const chars = [...p];
  const first = step(chars[0], chars[1]);
  if (first !== 1 && first !== -1) return false;
  for (let i = 2; i < chars.length; i++) if (step(chars[i - 1], chars[i]) !== first) return false;
  return true;
}

/** The reason a new password is refused (english / 中文), or null when it may be used. */
export async function newPasswordProblem(password: string, email: string): Promise<string | null> {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters / 密码至少 ${PASSWORD_MIN_LENGTH} 位`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters / 密码最多 ${PASSWORD_MAX_LENGTH} 位`;
  const p = password.normalize('NFKC').toLowerCase();
  const mail = email.trim().toLowerCase();
  const local = mail.split('@')[0] ?? '';
  if ((mail && p.includes(mail)) || (local.length >= 3 && p.includes(local))) {
    return 'must not contain the email address or its name part / 密码不能包含邮箱地址或邮箱用户名';
  }
  if (repeated(p) || straightRun(p)) {
    return 'is too easy to guess (one short run of characters repeated or in sequence) / 密码过于简单（重复或连续的字符）';
  }
  const list = await commonPasswords();
  const compact = p.replace(/\s+/gu, '');
  if ([p, compact, ...stripped(p)].some((x) => list.has(x))) {
    return 'is a commonly used password; choose another / 该密码过于常见，请换一个';
  }
  return null;
}

/** Throws 40001 naming `field` when the new password breaks the policy. */
export async function assertNewPassword(password: string, email: string, field = 'password'): Promise<void> {
  const problem = await newPasswordProblem(password, email);
  if (problem) throw invalid([{ field, message: problem }]);
}
