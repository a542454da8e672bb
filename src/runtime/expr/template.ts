/**
 * `{{ }}` in schema values: a whole-string expression keeps its type (`"{{ record.id }}"` →
 * 42); a string with expression parts becomes a string (`"/role/edit/{{ record.id }}"`).
 */
import { evaluate, type Scope } from './evaluate.js';

const WHOLE = /^\s*\{\{([\s\S]*)\}\}\s*$/;
const PART = /\{\{([\s\S]*?)\}\}/g;

/** Resolves one value: literal, whole expression or template string. */
export function resolveValue(value: unknown, scope: Scope, encode = false): unknown {
  if (typeof value !== 'string') return value;
  const whole = value.match(WHOLE);
  if (whole && !whole[1].includes('}}')) return evaluate(whole[1], scope);
  if (!value.includes('{{')) return value;
  return value.replace(PART, (_m, inner: string) => {
    const v = evaluate(inner, scope);
    const text = v === undefined || v === null ? '' : String(v);
    return encode ? encodeURIComponent(text) : text;
  });
}

/** A path template: expression parts are URI-encoded. */
export const resolvePath = (value: string, scope: Scope): string => String(resolveValue(value, scope, true) ?? '');

/** Resolves a condition (boolean or expression); absent means `fallback`. */
export function resolveCondition(value: boolean | string | undefined, scope: Scope, fallback = true): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  return Boolean(resolveValue(value, scope));
}

/** Resolves a param / body map; keys with dots build nested objects; undefined values are dropped. */
export function resolveMap(map: Record<string, unknown> | undefined, scope: Scope): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(map ?? {})) {
    const value = resolveValue(raw, scope);
    if (value === undefined) continue;
    const path = key.split('.');
    let target = out;
    for (const seg of path.slice(0, -1)) {
      if (typeof target[seg] !== 'object' || target[seg] === null) target[seg] = {};
      target = target[seg] as Record<string, unknown>;
    }
    target[path[path.length - 1]] = value;
  }
  return out;
}
