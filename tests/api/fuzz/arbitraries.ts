/**
 * fast-check arbitraries derived from a route's own JSON schema (RouteDef.body / RouteDef.query):
 *
 * - `validArb(schema)`: values the schema accepts (enums, formats, patterns, bounds, required keys);
 * - `brokenBody(schema)`: a valid body, then broken 1–3 times (wrong types, missing fields, NUL
 *   bytes, 1 MB strings, deep nesting, `__proto__` / `constructor` keys, SQL and HTML payloads,
 *   impossible dates, huge integers, not-an-object bodies, malformed JSON, wrong content types);
 * - `brokenQuery(schema)`: the same for query strings (every value a string, repeated keys,
 *   bad percent-encoding);
 * - `example(schema)`: one deterministic valid value (ids far beyond any row), for the matrix.
 */
import fc from 'fast-check';
import type { JsonSchema } from '../../../server/http/route.js';

const INT4_MIN = -2147483648;
const INT4_MAX = 2147483647;
/** an id no row has: the matrix calls touch nothing that exists */
export const FAR_ID = 2_000_000_000;

const typesOf = (s: JsonSchema): string[] => (Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : []);
const propsOf = (s: JsonSchema): Record<string, JsonSchema> => (s.properties as Record<string, JsonSchema>) ?? {};
const requiredOf = (s: JsonSchema): string[] => (s.required as string[]) ?? [];
const isIdName = (name: string) => name === 'id' || /_id$|_ids$|^ids$/.test(name);

const pad2 = (n: number) => String(n).padStart(2, '0');
const dateArb = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true });

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = (s.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((s.maxLength as number | undefined) ?? 40, Math.max(minLength, 40));
  const fits = (v: string) => v.length >= minLength && v.length <= ((s.maxLength as number | undefined) ?? Infinity);
  switch (s.format) {
    case 'email':
      return fc.tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom('example.com', 'example.org')).map(([a, d]) => `${a}@${d}`).filter(fits);
    case 'date-time':
      return dateArb.map((d) => d.toISOString());
    case 'calendar-date':
      return fc.tuple(dateArb, fc.constantFrom('date', 'space', 'iso')).map(([d, shape]) =>
        shape === 'date'
          ? d.toISOString().slice(0, 10)
          : shape === 'space'
            ? `${d.toISOString().slice(0, 10)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`
            : d.toISOString(),
      );
    default:
  }
  if (typeof s.pattern === 'string') {
    let re: RegExp | null = null;
    try {
      re = new RegExp(s.pattern as string);
    } catch {
      /* fall through */
    }
    // `^[class]+$`-like patterns: built from one character of the pattern, so minLength holds
    // without a filter that could retry forever
    const simple = /^\^(\[[^\]]+\]|\\[dwS]|\.)([+*])\$$/.exec(s.pattern as string);
    if (re && simple) {
      const unit = fc.stringMatching(new RegExp(`^${simple[1]}$`));
      const min = Math.max(minLength, simple[2] === '+' ? 1 : 0);
      return fc.array(unit, { minLength: min, maxLength: Math.max(min, maxLength) }).map((a) => a.join(''));
    }
    if (re) {
      const anchored = (s.pattern as string).startsWith('^') || (s.pattern as string).startsWith('(^');
      const core = fc.stringMatching(re).filter(fits);
      return anchored ? core : fc.tuple(core, fc.string({ maxLength: 5 })).map(([a, b]) => (a + b).slice(0, maxLength)).filter((v) => re.test(v) && fits(v));
    }
  }
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
      { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
    )
    .filter((v) => !v.includes('\u0000') && fits(v));
}

/** Values the schema accepts (the server may still refuse them for business reasons). */
export function validArb(s: JsonSchema | undefined): fc.Arbitrary<unknown> {
  if (!s || typeof s !== 'object') return fc.constant({});
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const types = typesOf(s);
  if (types.includes('null') && types.length > 1) {
    return fc.option(validArb({ ...s, type: types.filter((t) => t !== 'null')[0] }), { nil: null, freq: 4 });
  }
  switch (types[0]) {
    case 'string':
      return stringArb(s);
    case 'integer': {
      let min = (s.minimum as number | undefined) ?? INT4_MIN;
      if (typeof s.exclusiveMinimum === 'number') min = Math.max(min, s.exclusiveMinimum + 1);
      return fc.integer({ min: Math.max(min, INT4_MIN), max: Math.min((s.maximum as number | undefined) ?? INT4_MAX, INT4_MAX) });
    }
    case 'number': {
      const min = (s.minimum as number | undefined) ?? -1e9;
      const max = (s.maximum as number | undefined) ?? 1e9;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).filter((n) => typeof s.exclusiveMinimum !== 'number' || n > s.exclusiveMinimum);
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = validArb((s.items as JsonSchema) ?? {});
      const minLength = (s.minItems as number | undefined) ?? 0;
      const maxLength = Math.min((s.maxItems as number | undefined) ?? 5, Math.max(minLength, 5));
      return s.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
    }
    case 'object': {
      const props = propsOf(s);
      if (Object.keys(props).length === 0) return fc.constant({});
      const required = requiredOf(s).filter((k) => k in props);
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validArb(v)])), { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * One deterministic value the schema accepts: required fields only; fields named like ids
 * (`id`, `*_id`, `*_ids`) get `idValue` (default: an id no row has).
 */
export function example(s: JsonSchema | undefined, name = '', idValue = FAR_ID): unknown {
  if (!s || typeof s !== 'object') return {};
  if ('default' in s) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  const types = typesOf(s).filter((t) => t !== 'null');
  switch (types[0]) {
    case 'string': {
      if (s.format === 'email') return 'matrix@example.com';
      if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      if (s.format === 'calendar-date') return '2026-01-01';
      const max = (s.maxLength as number | undefined) ?? 50;
      if (typeof s.pattern === 'string') {
        const [v] = fc.sample(stringArb(s), { numRuns: 1, seed: 7 });
        return v;
      }
      const min = (s.minLength as number | undefined) ?? 0;
      return 'matrix value'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, 12)));
    }
    case 'integer': {
      const min = Math.max((s.minimum as number | undefined) ?? INT4_MIN, typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : INT4_MIN);
      const max = (s.maximum as number | undefined) ?? INT4_MAX;
      const want = isIdName(name) ? idValue : Math.max(min, Math.min(max, 1));
      return Math.max(min, Math.min(max, want));
    }
    case 'number':
      return Math.max((s.minimum as number | undefined) ?? -Infinity, Math.min((s.maximum as number | undefined) ?? Infinity, 1));
    case 'boolean':
      return false;
    case 'array': {
      const min = (s.minItems as number | undefined) ?? 0;
      return Array.from({ length: min }, (_, i) => {
        const v = example((s.items as JsonSchema) ?? {}, name, idValue);
        return typeof v === 'number' ? v + i : typeof v === 'string' ? `${v}${i}` : v;
      });
    }
    case 'object': {
      const props = propsOf(s);
      return Object.fromEntries(requiredOf(s).filter((k) => k in props).map((k) => [k, example(props[k], k, idValue)]));
    }
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// breaking

export const SQL_HTML = [
  "' OR '1'='1",
  "'; DROP TABLE roles; --",
  '1) OR 1=1 --',
  "%' UNION SELECT password_hash FROM accounts --",
  '\\',
  '$1',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  '{{7*7}}${7*7}',
  '../../../../etc/passwd',
  '\u202Egnp.exe',
  '\uD800',
  '🙂'.repeat(50),
  'now',
  'infinity',
  '-infinity',
  'NaN',
  'epoch',
];
export const BAD_DATES = ['2026-02-30', '2026-13-01', '0000-00-00', '2026-01-01 24:00:00', '2026-01-01T23:59:60Z', '99999-01-01', '2026-1-1', 'yesterday', 'now', 'infinity', '0001-01-01', '9999-12-31 23:59:59'];
export const HUGE_INTS: unknown[] = [2147483648, -2147483649, 9007199254740993, -9223372036854775808, 1e21, 1e308, 0.5, -0, '1', '', '0x10', [1], { $gt: 0 }];
const WRONG_TYPES: unknown[] = [123, -1, 1.5, 'abc', true, false, null, [], {}, [1, 'a'], { a: 1 }, '', ' '];

const MB = 1_000_000;
const bigStrings = new Map<string, string>();
/** 1 MB of one character (made once: strings are immutable) */
const bigString = (c: string): string => {
  let v = bigStrings.get(c);
  if (!v) bigStrings.set(c, (v = c.repeat(MB)));
  return v;
};
/** nested objects `depth` deep, as JSON text (not built as objects: JSON.stringify recursion) */
const deepJson = (depth: number, arrays: boolean) => (arrays ? '['.repeat(depth) + '1' + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

/** A broken request body: the raw text sent and its content type. */
export interface RawBody {
  payload: string;
  contentType: string;
  /** what was done to it (shown when a property fails) */
  steps: string[];
}

type Step =
  | { kind: 'wrongType'; field: number; value: unknown }
  | { kind: 'dropRequired'; field: number }
  | { kind: 'unknownKey'; key: string; value: unknown }
  | { kind: 'nul'; field: number; inKey: boolean }
  | { kind: 'huge'; field: number; char: string }
  | { kind: 'deep'; field: number; depth: number; arrays: boolean }
  | { kind: 'proto'; key: '__proto__' | 'constructor' | 'prototype' }
  | { kind: 'payload'; field: number; value: string }
  | { kind: 'date'; field: number; value: string }
  | { kind: 'int'; field: number; value: unknown }
  | { kind: 'whole'; value: string }
  | { kind: 'contentType'; value: string };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('wrongType' as const), field: fc.nat(), value: fc.constantFrom(...WRONG_TYPES) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('dropRequired' as const), field: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('unknownKey' as const), key: fc.string({ minLength: 1, maxLength: 12 }), value: fc.jsonValue({ maxDepth: 1 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('nul' as const), field: fc.nat(), inKey: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('huge' as const), field: fc.nat(), char: fc.constantFrom('a', ' ', '<', "'") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deep' as const), field: fc.nat(), depth: fc.constantFrom(100, 1000, 5000), arrays: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('proto' as const), key: fc.constantFrom('__proto__' as const, 'constructor' as const, 'prototype' as const) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('payload' as const), field: fc.nat(), value: fc.constantFrom(...SQL_HTML) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('date' as const), field: fc.nat(), value: fc.constantFrom(...BAD_DATES) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('int' as const), field: fc.nat(), value: fc.constantFrom(...HUGE_INTS) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('whole' as const),
      value: fc.constantFrom('[]', '"text"', '123', 'null', 'true', '{', '{"a":1,}', "{'a':1}", '\u0000', '[{}]', 'NaN', '{"a":1}{"b":2}', '\uFEFF{}'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('contentType' as const), value: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data', 'application/json; charset=latin1', '') }) },
);

/** the fields a step can aim at: declared properties, required first, then what the body holds */
const fieldsOf = (schema: JsonSchema, body: Record<string, unknown>): string[] => {
  const out = new Set<string>([...requiredOf(schema), ...Object.keys(propsOf(schema)), ...Object.keys(body)]);
  return [...out];
};

const pick = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);

/** Applies the steps to a valid value and serialises it (some steps work on the text). */
export function breakBody(schema: JsonSchema, valid: unknown, steps: Step[]): RawBody {
  let body: Record<string, unknown> = valid && typeof valid === 'object' && !Array.isArray(valid) ? { ...(valid as Record<string, unknown>) } : {};
  const text: Array<[string, string]> = []; // placeholders replaced in the JSON text
  let whole: string | null = null;
  let contentType = 'application/json';
  const log: string[] = [];
  const fields = fieldsOf(schema, body);
  const props = propsOf(schema);
  const stringFields = fields.filter((f) => typesOf(props[f] ?? {}).includes('string') || typeof body[f] === 'string');
  const intFields = fields.filter((f) => typesOf(props[f] ?? {}).some((t) => t === 'integer' || t === 'number'));
  const dateFields = fields.filter((f) => props[f]?.format === 'calendar-date' || props[f]?.format === 'date-time');
  const placeholder = (raw: string) => {
    const key = `\u0001fuzz${text.length}\u0001`;
    text.push([JSON.stringify(key), raw]);
    return key;
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'wrongType': {
        const f = pick(fields, step.field) ?? 'x';
        body[f] = step.value;
        log.push(`${f} = ${JSON.stringify(step.value)}`);
        break;
      }
      case 'dropRequired': {
        const f = pick(requiredOf(schema), step.field) ?? pick(fields, step.field);
        if (f) delete body[f];
        log.push(`drop ${f}`);
        break;
      }
      case 'unknownKey':
        body[step.key] = step.value;
        log.push(`extra ${JSON.stringify(step.key)}`);
        break;
      case 'nul': {
        const f = pick(stringFields, step.field) ?? pick(fields, step.field) ?? 'name';
        if (step.inKey) body[`${f}\u0000`] = body[f] ?? 'x';
        else body[f] = `${typeof body[f] === 'string' ? body[f] : 'x'}\u0000tail`;
        log.push(`NUL in ${step.inKey ? 'key ' : ''}${f}`);
        break;
      }
      case 'huge': {
        const f = pick(stringFields, step.field) ?? pick(fields, step.field) ?? 'name';
        body[f] = bigString(step.char);
        log.push(`${f} = 1 MB of ${JSON.stringify(step.char)}`);
        break;
      }
      case 'deep': {
        const f = pick(fields, step.field) ?? 'a';
        body[f] = placeholder(deepJson(step.depth, step.arrays));
        log.push(`${f} nested ${step.depth} deep`);
        break;
      }
      case 'proto': {
        const inner = step.key === 'constructor' ? '{"prototype":{"is_super_admin":true,"polluted":1}}' : '{"is_super_admin":true,"polluted":1}';
        body[`\u0002${step.key}`] = placeholder(inner);
        log.push(`${step.key} key`);
        break;
      }
      case 'payload': {
        const f = pick(stringFields, step.field) ?? pick(fields, step.field) ?? 'name';
        body[f] = step.value;
        log.push(`${f} = ${JSON.stringify(step.value)}`);
        break;
      }
      case 'date': {
        const f = pick(dateFields, step.field) ?? pick(stringFields, step.field) ?? pick(fields, step.field) ?? 'created_at_from';
        body[f] = step.value;
        log.push(`${f} = ${step.value}`);
        break;
      }
      case 'int': {
        const f = pick(intFields, step.field) ?? pick(fields, step.field) ?? 'id';
        body[f] = step.value;
        log.push(`${f} = ${JSON.stringify(step.value)}`);
        break;
      }
      case 'whole':
        whole = step.value;
        log.push(`body ${JSON.stringify(step.value)}`);
        break;
      case 'contentType':
        contentType = step.value;
        log.push(`content-type ${JSON.stringify(step.value)}`);
        break;
    }
  }
  if (whole !== null) body = {};
  let payload = whole ?? JSON.stringify(body);
  for (const [quoted, raw] of text) payload = payload.replace(quoted, raw);
  // keys written as "\u0002__proto__" become a real "__proto__" key in the text
  payload = payload.replace(/"\\u0002(__proto__|constructor|prototype)"/g, '"$1"');
  return { payload, contentType, steps: log };
}

/** A valid body broken 1–3 times. */
export const brokenBody = (schema: JsonSchema | undefined): fc.Arbitrary<RawBody> =>
  fc
    .tuple(validArb(schema ?? { type: 'object' }), fc.array(stepArb, { minLength: 1, maxLength: 3 }))
    .map(([v, steps]) => breakBody(schema ?? { type: 'object' }, v, steps));

// ---------------------------------------------------------------------------------------------
// queries

/** A query string (without '?') and what was done to it. */
export interface RawQuery {
  query: string;
  steps: string[];
}

/** percent-encoding that also writes lone surrogates, as the invalid UTF-8 bytes a careless client would send */
const enc = (v: string): string => {
  if (!/[\uD800-\uDFFF]/u.test(v)) return encodeURIComponent(v); // (with the u flag only a lone surrogate matches)
  let out = '';
  let run = '';
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (v.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      run += v[i] + v[i + 1];
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += encodeURIComponent(run) + [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      run = '';
    } else run += v[i];
  }
  return out + encodeURIComponent(run);
};
const asQueryValue = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

type QStep =
  | { kind: 'value'; field: number; value: string }
  | { kind: 'repeat'; field: number }
  | { kind: 'unknown'; key: string }
  | { kind: 'nul'; field: number }
  | { kind: 'huge'; field: number }
  | { kind: 'rawPercent'; field: number; value: string }
  | { kind: 'bracket'; key: string };

const qStepArb: fc.Arbitrary<QStep> = fc.oneof(
  {
    weight: 18,
    arbitrary: fc.record({
      kind: fc.constant('value' as const),
      field: fc.nat(),
      value: fc.constantFrom(...SQL_HTML, ...BAD_DATES, ...HUGE_INTS.map(asQueryValue), 'abc', '-1', '1.5', '1e3', '99999999999', 'true', 'null', '', ' ', '[]', '{}', 'desc; DROP TABLE roles'),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('repeat' as const), field: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('unknown' as const), key: fc.string({ minLength: 1, maxLength: 10 }) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('nul' as const), field: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('huge' as const), field: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('rawPercent' as const), field: fc.nat(), value: fc.constantFrom('%', '%E0%A4%A', '%FF%FE', '%C0%AE%C0%AE', '%u0000', '%00') }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('bracket' as const), key: fc.constantFrom('__proto__[polluted]', 'constructor[prototype][polluted]', 'page[]', 'a[b][c]', '__proto__') }) },
);

export function breakQuery(schema: JsonSchema, valid: unknown, steps: QStep[]): RawQuery {
  const pairs: Array<[string, string, boolean]> = []; // key, value, already encoded
  const obj = valid && typeof valid === 'object' ? (valid as Record<string, unknown>) : {};
  for (const [k, v] of Object.entries(obj)) {
    if (Array.isArray(v)) for (const x of v) pairs.push([k, asQueryValue(x), false]);
    else pairs.push([k, asQueryValue(v), false]);
  }
  const fields = [...new Set([...Object.keys(propsOf(schema)), ...Object.keys(obj)])];
  const log: string[] = [];
  const set = (k: string, v: string, encoded = false) => {
    const i = pairs.findIndex((p) => p[0] === k);
    if (i >= 0) pairs[i] = [k, v, encoded];
    else pairs.push([k, v, encoded]);
  };
  for (const s of steps) {
    const f = pick(fields, 'field' in s ? s.field : 0) ?? 'page';
    switch (s.kind) {
      case 'value':
        set(f, s.value);
        log.push(`${f}=${JSON.stringify(s.value)}`);
        break;
      case 'repeat':
        pairs.push([f, '1', false], [f, 'x', false]);
        log.push(`${f} twice`);
        break;
      case 'unknown':
        pairs.push([s.key, '1', false]);
        log.push(`extra ${JSON.stringify(s.key)}`);
        break;
      case 'nul':
        set(f, 'a\u0000b');
        log.push(`NUL in ${f}`);
        break;
      case 'huge':
        set(f, bigString('a'));
        log.push(`${f} = 1 MB`);
        break;
      case 'rawPercent':
        set(f, s.value, true);
        log.push(`${f}=${s.value} (raw)`);
        break;
      case 'bracket':
        pairs.push([s.key, '1', true]);
        log.push(`key ${s.key}`);
        break;
    }
  }
  return { query: pairs.map(([k, v, e]) => `${e ? k : enc(k)}=${e ? v : enc(v)}`).join('&'), steps: log };
}

export const brokenQuery = (schema: JsonSchema | undefined): fc.Arbitrary<RawQuery> =>
  fc
    .tuple(validArb(schema ?? { type: 'object' }), fc.array(qStepArb, { minLength: 1, maxLength: 3 }))
    .map(([v, steps]) => breakQuery(schema ?? { type: 'object' }, v, steps));
