/**
 * The clients of the soak (scripts/soak.ts): one signed-in session, every call timed and
 * counted, anything but HTTP 200 with envelope 10000 an error.
 */

interface Session {
  headers: Record<string, string>;
}

async function signIn(url: string, admin: { email: string; password: string }): Promise<Session> {
  const res = await fetch(`${url}/api/admin/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const body = (await res.json()) as { code: number; msg: string; data?: { user?: { token?: string } } };
  const token = body.data?.user?.token;
  if (body.code !== 10000 || !token) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(body)}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return { headers: { 'admin-token': token, cookie } };
}

export class CallError extends Error {}

export const stats = {
  requests: 0,
  errors: 0,
  errorKinds: new Map<string, number>(),
  latencies: [] as number[],
  intervalLatencies: [] as number[],
  intervalRequests: 0,
  intervalErrors: 0,
  /** latencies per call (method + path), for the slowest calls in the summary */
  perCall: new Map<string, number[]>(),
};

export function recordError(kind: string) {
  stats.errors++;
  stats.intervalErrors++;
  stats.errorKinds.set(kind, (stats.errorKinds.get(kind) ?? 0) + 1);
}

let session: Session;
let base = '';

/** Signs in to the server at `url`: every call goes there as that account from now on. */
export async function connect(url: string, admin: { email: string; password: string }): Promise<void> {
  base = url;
  session = await signIn(url, admin);
}

/** One API call: HTTP 200 and envelope 10000 or it counts as an error (and throws). */
export async function call<T = any>(method: 'GET' | 'POST', p: string, payload?: Record<string, unknown>): Promise<T> {
  const u = new URL(`${base}/api/admin/${p}`);
  if (method === 'GET') for (const [k, v] of Object.entries(payload ?? {})) u.searchParams.set(k, String(v));
  const t0 = performance.now();
  let kind = '';
  let data: T | undefined;
  try {
    const res = await fetch(u, {
      method,
      headers: { ...session.headers, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      body: method === 'POST' ? JSON.stringify(payload ?? {}) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (res.status !== 200) kind = `HTTP ${res.status} ${method} ${p}: ${text.slice(0, 120)}`;
    else {
      const body = JSON.parse(text) as { code: number; msg: string; data: T };
      if (body.code !== 10000) kind = `code ${body.code} ${method} ${p}: ${body.msg.slice(0, 120)}`;
      data = body.data;
    }
  } catch (err) {
    kind = `${(err as Error).name === 'TimeoutError' ? 'timeout' : 'network'} ${method} ${p}: ${(err as Error).message}`;
  }
  const ms = performance.now() - t0;
  stats.requests++;
  stats.intervalRequests++;
  stats.latencies.push(ms);
  stats.intervalLatencies.push(ms);
  const key = `${method} ${p}`;
  let list = stats.perCall.get(key);
  if (!list) stats.perCall.set(key, (list = []));
  list.push(ms);
  if (kind) {
    recordError(kind);
    throw new CallError(kind);
  }
  return data as T;
}

