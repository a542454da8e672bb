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
import type { Readable } from 'node:stream';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
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
  /** an array frame whose first element (or closing bracket) has not been seen yet */
  pendingFirst: boolean;
}

export interface ShapeProblem {
  field: string;
  message: string;
}

const fieldOf = (stack: Frame[]): string => {
  const segs = stack.map((f) => (f.array ? String(Math.max(0, f.count - 1)) : f.key));
  return segs.slice(0, NAMED_SEGMENTS).join('.') || 'body';
};

/** bytes of a key kept for naming it */
const KEY_BYTES = 200;

/**
 * The limits checked on raw UTF-8 bytes as they arrive, chunk by chunk, without building any
 * value: the state is the stack of open containers (at most `maxDepth` frames) and the string
 * being read. Not a JSON validator: malformed text passes through (the parser refuses it
 * afterwards); strings are measured in characters as written (escapes count as written).
 * Structural characters are ASCII and never occur inside a multi-byte UTF-8 sequence, so reading
 * bytes is exact.
 */
export class ShapeScanner {
  problem: ShapeProblem | null = null;
  private readonly stack: Frame[] = [];
  private inString = false;
  private escaped = false;
  private strLen = 0;
  private strIsKey = false;
  private keyBytes: number[] = [];

  constructor(private readonly limits: ShapeLimits = SHAPE_LIMITS) {}

  /** Reads the next chunk; the first limit crossed so far, or null. */
  feed(buf: Uint8Array): ShapeProblem | null {
    if (this.problem) return this.problem;
    const { maxDepth, maxArray, maxKeys, maxString } = this.limits;
    const stack = this.stack;
    const n = buf.length;
    for (let i = 0; i < n; i++) {
      const c = buf[i];
      if (this.inString) {
        if (!this.escaped && c === 0x22 /* " */) {
          this.inString = false;
          if (this.strIsKey) {
            const top = stack[stack.length - 1];
            top.key = Buffer.from(this.keyBytes).toString('utf8');
            top.expectKey = false;
          }
          continue;
        }
        this.escaped = !this.escaped && c === 0x5c; /* \ */
        // a character begins at every byte but a UTF-8 continuation byte
        if ((c & 0xc0) !== 0x80 && ++this.strLen > maxString) {
          const field = this.strIsKey ? fieldOf(stack.slice(0, -1)) : fieldOf(stack);
          return (this.problem = { field, message: `is longer than ${maxString} characters / 超过 ${maxString} 个字符` });
        }
        if (this.strIsKey && this.keyBytes.length < KEY_BYTES) this.keyBytes.push(c);
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      const top = stack[stack.length - 1];
      // an array's first element begins with anything but its closing bracket
      if (top?.pendingFirst) {
        top.pendingFirst = false;
        if (c !== 0x5d) top.count = 1;
      }
      if (c === 0x22) {
        this.inString = true;
        this.escaped = false;
        this.strLen = 0;
        this.strIsKey = !!top && !top.array && top.expectKey;
        if (this.strIsKey) this.keyBytes = [];
      } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (stack.length >= maxDepth) {
          return (this.problem = { field: fieldOf(stack), message: `is nested deeper than ${maxDepth} levels / 嵌套超过 ${maxDepth} 层` });
        }
        const array = c === 0x5b;
        stack.push({ array, count: array ? 0 : 1, key: '', expectKey: !array, pendingFirst: array });
      } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
        stack.pop();
      } else if (c === 0x2c /* , */ && top) {
        top.count++;
        if (top.array && top.count > maxArray) {
          return (this.problem = { field: fieldOf(stack.slice(0, -1)), message: `has more than ${maxArray} items / 超过 ${maxArray} 项` });
        }
        if (!top.array) {
          if (top.count > maxKeys) return (this.problem = { field: fieldOf(stack.slice(0, -1)), message: `has more than ${maxKeys} keys / 超过 ${maxKeys} 个键` });
          top.expectKey = true;
        }
      }
    }
    return null;
  }
}

/** Requests refused for their shape: answered with HTTP 400 (the envelope's code is 40001). */
const refusedShape = new WeakSet<FastifyRequest>();

/**
 * How much of a JSON body is read (and scanned, not kept) at most, whatever the route's body
 * limit: a body beyond the route's limit is still scanned up to here, so a shape problem is named
 * (400) before its size is refused (413); beyond this, 413 without reading further.
 */
export const JSON_SCAN_CAP = 8 * 1024 * 1024;

const tooLarge = () => new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();

/**
 * The app's JSON parser. The body is read as it streams in: every chunk goes through the shape
 * scanner; chunks are kept only up to the route's body limit (so memory stays within the limit
 * whatever is sent). At the end: a shape problem → 400 naming its field; else a body over the
 * route's limit → 413; else Fastify's own parser (prototype-poisoning safe). An empty JSON body
 * reads as {} (clients that POST with no data still send the type).
 */
export function registerJsonParser(app: FastifyInstance, limits: ShapeLimits = SHAPE_LIMITS, scanCap = JSON_SCAN_CAP): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (req: FastifyRequest, payload: Readable, done: (err: Error | null, body?: unknown) => void) => {
    const limit = req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
    const cap = Math.max(scanCap, limit);
    const declared = Number(req.headers['content-length']);
    if (declared > cap) return done(tooLarge());
    const scanner = new ShapeScanner(limits);
    const chunks: Buffer[] = [];
    let received = 0;
    const refuse = (problem: ShapeProblem) => {
      refusedShape.add(req);
      return invalid([problem]);
    };
    const finish = (err: Error | null, text = '') => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
      if (err) done(err);
      else if (text === '') done(null, {});
      else json(req, text, done);
    };
    function onData(chunk: Buffer | string) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += buf.length;
      if (received > cap) return finish(scanner.problem ? refuse(scanner.problem) : tooLarge());
      scanner.feed(buf);
      if (received <= limit) chunks.push(buf);
    }
    function onEnd(err?: Error & { statusCode?: number }) {
      if (err) {
        if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
        return finish(err);
      }
      if (scanner.problem) return finish(refuse(scanner.problem));
      if (received > limit) return finish(tooLarge());
      if (!Number.isNaN(declared) && received !== declared) return finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      finish(null, Buffer.concat(chunks, received).toString('utf8'));
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
  // the error handler answers coded errors with HTTP 200; a refused shape is a 400
  app.addHook('onSend', async (req, reply, payload) => {
    if (refusedShape.has(req) && reply.statusCode === 200) reply.code(400);
    return payload;
  });
}
