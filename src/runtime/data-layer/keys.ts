/**
 * Query keys of the data layer: `['api', "GET thing/list", params]` — the schema's API ref and
 * the parameters actually sent (the query library hashes objects with sorted keys, so the order
 * params are written in does not matter). The resource of a call is its path without the last
 * segment (`GET shop/list` and `POST shop/batch-delete` are both `shop`); a write invalidates the
 * keys of its resource (client.ts).
 */
import type { QueryKey } from '@tanstack/react-query';
import { parseApi } from '../api.js';
import type { HttpPort, RequestOptions } from '../env.js';

export type ApiKey = readonly ['api', string, Record<string, unknown>];

/** The key of a read: API ref (normalised "METHOD path") and its parameters. */
export function apiKey(ref: string, params: Record<string, unknown> | undefined): ApiKey {
  const { method, path } = parseApi(ref);
  return ['api', `${method} ${path}`, params ?? {}];
}

/** `shop/list` → `shop`, `call-center/task/delete` → `call-center/task`, `config` → `config`. */
export function resourceOf(path: string): string {
  const segments = path.replace(/^\/+|\/+$/g, '').split('/');
  return segments.length > 1 ? segments.slice(0, -1).join('/') : segments[0];
}

/** Is this key a read of `resource` (the resource a write's path names)? Never throws. */
export function keyOfResource(key: QueryKey, resource: string): boolean {
  if (key[0] !== 'api' || typeof key[1] !== 'string') return false;
  const m = /^(?:GET|POST) (\S+)$/.exec(key[1]);
  return !!m && resourceOf(m[1]) === resource;
}

/**
 * A read through the env's http port, cancelled by `signal` (the query's AbortSignal, handed to
 * the transport, which aborts its XMLHttpRequest). A POST read (a form that loads its record by POST) does not count as a write: it goes
 * to the port directly, not through callApi, so it invalidates nothing.
 */
export function readApi<T = unknown>(http: HttpPort, ref: string, params: Record<string, unknown>, signal?: AbortSignal, opts?: RequestOptions): Promise<T> {
  const { method, path } = parseApi(ref);
  const options = { ...opts, signal };
  return method === 'GET' ? http.get<T>(path, params, options) : http.post<T>(path, params, options);
}
