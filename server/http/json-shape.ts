/**
 * Shape limits of every JSON body (issue 25): nesting depth, array length, keys per object and
 * string length are checked on the raw text in ONE linear pass, before the text is parsed and
 * before anything recursive (validation, the NUL check, hashing, the handler) sees the value. A
 * body beyond a limit is HTTP 400 with a 40001 envelope naming the field where the limit was
 * crossed (`records.0.raw.a.a…` is named by its first segments), in both languages.
 *
 * The limits sit far above any body a route takes (the largest schemas: 5,000 items, 200,000
 * characters; ingestion: 1,000 records) and far below what hurts (a 10,000-deep document, a
 * million-element array).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid } from './errors.js';

export interface ShapeLimits {
  maxDepth: number;
  maxArray: number;
  maxKeys: number;
  maxString: number;
}

export const SHAPE_LIMITS: ShapeLimits = { maxDepth: 64, maxArray: 10_000, maxKeys: 10_000, maxString: 1_000_000 };

/** segments of a path named in a refusal (a 10,000-deep path is named by its start) */
const NAMED_SEGMENTS = 8;

interface Frame {
  array: boolean;
  /** elements (array) or keys (object) begun so far */
  count: number;
  /** the key being read or last read (object) */
  key: string;
  /** an object frame expecting a key next */
  expectKey: boolean;
}

export interface ShapeProblem {
  field: string;
  message: string;
}

const fieldOf = (stack: Frame[], extra?: string): string => {
  const segs = stack.map((f) => (f.array ? String(Math.max(0, f.count - 1)) : f.key));
  if (extra !== undefined) segs.push(extra);
  return segs.slice(0, NAMED_SEGMENTS).join('.') || 'body';
};

/**
 * The first limit `text` crosses, or null. Not a JSON validator: malformed text passes through
 * (the parser refuses it afterwards); strings are measured as written (escapes count as written).
 */
export function shapeProblem(text: string, limits: ShapeLimits = SHAPE_LIMITS): ShapeProblem | null {
  const stack: Frame[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i + 1;
      let j = start;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 0x5c /* \ */) j++;
        else if (d === 0x22) break;
      }
      const top = stack[stack.length - 1];
      const isKey = !!top && !top.array && top.expectKey;
      if (j - start > limits.maxString) {
        const field = isKey ? fieldOf(stack.slice(0, -1)) : fieldOf(stack);
        return { field, message: `is longer than ${limits.maxString} characters / 超过 ${limits.maxString} 个字符` };
      }
      if (isKey) {
        top.key = text.slice(start, Math.min(j, start + 200));
        top.expectKey = false;
      }
      i = j;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= limits.maxDepth) {
        return { field: fieldOf(stack), message: `is nested deeper than ${limits.maxDepth} levels / 嵌套超过 ${limits.maxDepth} 层` };
      }
      const array = c === 0x5b;
      stack.push({ array, count: 0, key: '', expectKey: !array });
      // an array's first element begins unless it is empty
      if (array) {
        let k = i + 1;
        while (k < n && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x0a || text.charCodeAt(k) === 0x0d || text.charCodeAt(k) === 0x09)) k++;
        if (k < n && text.charCodeAt(k) !== 0x5d) stack[stack.length - 1].count = 1;
      } else {
        stack[stack.length - 1].count = 1;
      }
      continue;
    }
    if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      continue;
    }
    if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (!top) continue;
      top.count++;
      if (top.array && top.count > limits.maxArray) {
        const s = stack.slice(0, -1);
        return { field: fieldOf(s), message: `has more than ${limits.maxArray} items / 超过 ${limits.maxArray} 项` };
      }
      if (!top.array) {
        if (top.count > limits.maxKeys) return { field: fieldOf(stack.slice(0, -1)), message: `has more than ${limits.maxKeys} keys / 超过 ${limits.maxKeys} 个键` };
        top.expectKey = true;
      }
    }
  }
  return null;
}

/** Requests refused for their shape: answered with HTTP 400 (the envelope's code is 40001). */
const refusedShape = new WeakSet<FastifyRequest>();

/**
 * The app's JSON parser: the shape limits first, then Fastify's own parser (prototype-poisoning
 * safe); an empty JSON body reads as {} (clients that POST with no data still send the type).
 */
export function registerJsonParser(app: FastifyInstance, limits: ShapeLimits = SHAPE_LIMITS): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (text === '') return done(null, {});
    const problem = shapeProblem(text, limits);
    if (problem) {
      refusedShape.add(req);
      return done(invalid([problem]), undefined);
    }
    return json(req, text, done);
  });
  // the error handler answers coded errors with HTTP 200; a refused shape is a 400
  app.addHook('onSend', async (req, reply, payload) => {
    if (refusedShape.has(req) && reply.statusCode === 200) reply.code(400);
    return payload;
  });
}
