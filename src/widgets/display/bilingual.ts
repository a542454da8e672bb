/**
 * Reasons the server stores for people to read (a failed extraction, a failed document) are
 * bilingual, "english / 中文" (parts joined by "; "), as its messages are (server/http/lang.ts);
 * a cell that says `bilingual` shows the half in the console's language. Text that is not
 * bilingual is shown as it is.
 */
const HAN = /\p{Script=Han}/u;
const FIELD_PREFIX = /^([\w.[\]-]+: )/;

function half(seg: string, locale: 'zh-CN' | 'en-US'): string {
  const at = seg.lastIndexOf(' / ');
  if (at < 0) return seg;
  const left = seg.slice(0, at);
  const right = seg.slice(at + 3);
  if (!HAN.test(right) || HAN.test(left.replace(FIELD_PREFIX, ''))) return seg;
  return locale === 'en-US' ? left : (FIELD_PREFIX.exec(left)?.[1] ?? '') + right;
}

export function pickHalf(text: string, locale: 'zh-CN' | 'en-US'): string {
  if (!text.includes(' / ')) return text;
  return text
    .split('; ')
    .map((s) => half(s, locale))
    .join(locale === 'zh-CN' ? '；' : '; ');
}
