/**
 * Server messages in the caller's language (issue 14). Every message the server writes is
 * bilingual, "english / 中文" (field errors too: "name: is required / 必填"); an API client that
 * names no language gets both. The console sends `x-lang: zh-CN | en-US` (its own locale, not the
 * browser's Accept-Language) and gets the half in its language, so a Chinese screen never shows
 * "incorrect email or password" and an English one never shows 请求体过大.
 */
import type { FastifyRequest } from 'fastify';

export type Lang = 'zh-CN' | 'en-US';

export const LANG_HEADER = 'x-lang';

/** The language the caller asked for, or null (then messages stay bilingual). */
export function requestLang(req: FastifyRequest | undefined): Lang | null {
  const v = req?.headers[LANG_HEADER];
  const s = (Array.isArray(v) ? v[0] : v)?.toLowerCase() ?? '';
  if (s.startsWith('zh')) return 'zh-CN';
  if (s.startsWith('en')) return 'en-US';
  return null;
}

const HAN = /\p{Script=Han}/u;
/** "field.path: " at the start of a segment (kept in both languages) */
const FIELD_PREFIX = /^([\w.[\]-]+: )/;

/** One "english / 中文" segment → its half in `lang` (a segment that is not bilingual stays as is). */
function pickSegment(seg: string, lang: Lang): string {
  const at = seg.lastIndexOf(' / ');
  if (at < 0) return seg;
  const left = seg.slice(0, at);
  const right = seg.slice(at + 3);
  if (!HAN.test(right) || HAN.test(left.replace(FIELD_PREFIX, ''))) return seg;
  if (lang === 'en-US') return left;
  const prefix = FIELD_PREFIX.exec(left)?.[1] ?? '';
  return prefix + right;
}

/**
 * A message in `lang`: each "; "-separated part that reads "english / 中文" keeps its half
 * (a field prefix "name: " stays). Anything else is returned unchanged.
 */
export function pickLang(text: string, lang: Lang | null): string {
  if (!lang || !text.includes(' / ')) return text;
  return text
    .split('; ')
    .map((s) => pickSegment(s, lang))
    .join(lang === 'zh-CN' ? '；' : '; ');
}

/** names quoted inside a title ("…", 「…」, (…)) may be in either language */
const QUOTED = /"[^"]*"|“[^”]*”|「[^」]*」|\([^)]*\)|（[^）]*）/g;

/**
 * A title "english / 中文" in `lang` where the English half may quote a Chinese name
 * (`Run test task #5 "花间" / 运行测试任务 #5`): the first " / " whose left half has no Chinese
 * outside quotes and whose right half has some splits it; else as pickLang.
 */
export function pickTitle(text: string, lang: Lang | null): string {
  if (!lang) return text;
  for (let i = text.indexOf(' / '); i >= 0; i = text.indexOf(' / ', i + 3)) {
    const left = text.slice(0, i);
    const right = text.slice(i + 3);
    if (!HAN.test(left.replace(QUOTED, '')) && HAN.test(right)) return lang === 'en-US' ? left : right;
  }
  return pickLang(text, lang);
}

/** The label of a field in a language (the form's title for it), or undefined: the key stays. */
export type FieldLabeler = (field: string, lang: Lang) => string | undefined;

/** Each "; "-separated part's leading "field: " as "Label: " where the field has a label. */
export function labelFields(text: string, lang: Lang, label: FieldLabeler): string {
  return text
    .split(/(; |；)/)
    .map((part) => {
      const m = FIELD_PREFIX.exec(part);
      const name = m?.[1].slice(0, -2);
      const l = name ? label(name, lang) : undefined;
      return l ? `${l}: ${part.slice(m![1].length)}` : part;
    })
    .join('');
}

/**
 * The envelope's msg and its field errors in the caller's language; with `label`, the fields the
 * msg names by key are named by their label (each error keeps `field` and gains `label`).
 */
export function localizeEnvelope(req: FastifyRequest | undefined, msg: string, data: unknown, label?: FieldLabeler): { msg: string; data: unknown } {
  const lang = requestLang(req);
  if (!lang) return { msg, data };
  const text = label ? labelFields(pickLang(msg, lang), lang, label) : pickLang(msg, lang);
  const errors = (data as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return { msg: text, data };
  return {
    msg: text,
    data: {
      ...(data as object),
      errors: errors.map((e: { field?: string; message?: unknown }) => {
        if (typeof e?.message !== 'string') return e;
        const l = label && typeof e.field === 'string' ? label(e.field, lang) : undefined;
        return { ...e, message: pickLang(e.message, lang), ...(l ? { label: l } : {}) };
      }),
    },
  };
}

/**
 * "english / 中文" with a prefix in each half: ("connection failed: ", "连接失败：", "timeout / 超时")
 * → "connection failed: timeout / 连接失败：超时" (a text that is not bilingual goes in both halves).
 */
export function bilingualPrefix(en: string, zh: string, text: string): string {
  const at = text.lastIndexOf(' / ');
  const [left, right] = at < 0 || !HAN.test(text.slice(at + 3)) ? [text, text] : [text.slice(0, at), text.slice(at + 3)];
  return `${en}${left} / ${zh}${right}`;
}
