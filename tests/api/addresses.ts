/**
 * A client whose requests come from `ip` (X-Forwarded-For: start the server with
 * `config: { trustProxy: true }`), so one test can act from many addresses.
 */
import type { ApiClient, TestServer } from './harness.js';

export function clientFrom(s: TestServer, ip: string): ApiClient {
  const c = s.anon();
  const request = c.request.bind(c);
  c.request = (method, p, opts = {}) => request(method, p, { ...opts, headers: { 'x-forwarded-for': ip, ...opts.headers } });
  return c;
}
