import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { invalid } from '../http/errors.js';

/** Dotted path of the first string holding a NUL character (keys included), or null. */
export function nulField(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : null;
  if (!value || typeof value !== 'object' || depth > 64) return null;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const p = path ? `${path}.${k}` : k;
    if (k.includes('\u0000')) return p;
    const hit = nulField(v, p, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/** Why an uploaded file's name is refused, or null: a path, control characters, over 255 characters. */
export function uploadNameProblem(name: string | undefined): string | null {
  if (!name) return null; // no file name: the route says "please upload a file"
  if ([...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return 'file name contains control characters / 文件名含有控制字符';
  if (/[\\/]/.test(name) || name === '.' || name === '..') return 'file name must be a name, not a path / 文件名不能包含路径';
  if ([...name].length > 255) return 'file name is longer than 255 characters / 文件名超过 255 个字符';
  return null;
}

/**
 * Rules every route gets once, before its own schema: a NUL character in any text of the body
 * or query is refused with 40001 naming the field (PostgreSQL cannot store it in text). Uploads:
 * a file whose name is a path (`../../etc/passwd`, `C:\\x\\a.txt`), holds control characters or
 * is over 255 characters is refused with 40001 on the file's field before any route reads it
 * (names arrive as sent: busboy's silent basename is turned off, so the refusal can say why).
 */
export function registerInputRules(app: FastifyInstance): void {
  app.addHook('preValidation', (req, _reply, done) => {
    const field = nulField(req.body) ?? nulField(req.query);
    if (field) done(invalid([{ field, message: 'contains a NUL character / 含有空字符' }]));
    else done();
  });
  app.addHook('preHandler', (req, _reply, done) => {
    if (typeof req.isMultipart === 'function' && req.isMultipart()) {
      const parts = req.parts.bind(req);
      req.parts = async function* checkedParts(options) {
        for await (const part of parts({ ...options, preservePath: true })) {
          if (part.type === 'file') {
            const problem = uploadNameProblem(part.filename);
            if (problem) {
              part.file.resume(); // let the parser finish with the part
              throw invalid([{ field: part.fieldname || 'file', message: problem }]);
            }
          }
          yield part;
        }
      };
    }
    done();
  });
}

const raw = (status: number, reason: string, code: number, msg: string): string => {
  const body = JSON.stringify({ code, msg, data: null });
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
};

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (headers too large, a
 * malformed request line) still get an envelope.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    socket.end(raw(431, 'Request Header Fields Too Large', 40001, 'headers: request headers too large / 请求头过大'));
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ECONNRESET') {
    socket.destroy();
  } else {
    socket.end(raw(400, 'Bad Request', 40001, 'request: malformed HTTP request / 请求格式错误'));
  }
}
