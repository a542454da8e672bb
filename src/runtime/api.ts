/** API refs ("METHOD path", path relative to /api/admin/) and calls through the env's http port. */
import type { HttpPort, RequestOptions } from './env.js';
import { emitDataEvent } from './data-layer/events.js';
import { invalidateAfterWrite } from './session-data.js';

export interface ApiTarget {
  method: 'GET' | 'POST';
  path: string;
}

export function parseApi(ref: string): ApiTarget {
  const m = /^(GET|POST) (\S+)$/.exec(ref.trim());
  if (!m) throw new Error(`bad API ref "${ref}" (want "GET path" or "POST path")`);
  return { method: m[1] as 'GET' | 'POST', path: m[2] };
}

export function callApi<T = unknown>(http: HttpPort, ref: string, data: Record<string, unknown>, opts?: RequestOptions): Promise<T> {
  const { method, path } = parseApi(ref);
  if (method === 'GET') return http.get<T>(path, data, opts);
  return http.post<T>(path, data, opts).then((reply) => {
    invalidateAfterWrite(path);
    emitDataEvent({ kind: 'write', path });
    return reply;
  });
}

/** Reads a dotted path (`a.b.0`) out of a value. */
export function getPath(value: unknown, path: string | undefined): unknown {
  if (!path) return value;
  let cur: unknown = value;
  for (const seg of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** A 40001 reply's field errors, if the rejection carries them (ApiError from the console client). */
export function fieldErrorsOf(err: unknown): Array<{ field: string; message: string }> | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; data?: unknown };
  if (e.code !== 40001 || !e.data || typeof e.data !== 'object') return null;
  const errors = (e.data as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return null;
  return errors.filter(
    (x): x is { field: string; message: string } => !!x && typeof x.field === 'string' && typeof x.message === 'string',
  );
}
