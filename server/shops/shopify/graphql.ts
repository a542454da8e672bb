/**
 * Shopify's Admin GraphQL API: `POST https://{shop}.myshopify.com/admin/api/{version}/graphql.json`
 * with the `X-Shopify-Access-Token` header, over the outbound-call policy (server/http/outbound.ts),
 * or the built-in sandbox emulator in-process (a transport that answers the same JSON).
 *
 * Cost-based throttling (shopify.dev "GraphQL Admin API rate limits"): every reply carries
 * `extensions.cost` (requestedQueryCost, actualQueryCost, throttleStatus { maximumAvailable,
 * currentlyAvailable, restoreRate }). A reply whose errors carry `extensions.code: THROTTLED`
 * (HTTP 200, or 429) is waited out for (requested − currentlyAvailable) ÷ restoreRate seconds
 * and asked again; between calls the client paces itself from the last throttle status, so a
 * long sync rarely meets THROTTLED at all.
 */
import { describeOutboundError, outboundFetch } from '../../http/outbound.js';
import { adminGraphqlUrl, shopifySettings } from '../config.js';
import { PlatformRefused, type Connection } from '../types.js';

export interface GraphqlReply {
  status: number;
  json: {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message?: string; extensions?: { code?: string } }>;
    extensions?: { cost?: Cost };
  } | null;
}

export interface Cost {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

export type Transport = (body: { query: string; variables: Record<string, unknown> }, signal?: AbortSignal) => Promise<GraphqlReply>;

/** A failure worth another attempt of the job (network, 5xx, a bad reply): the message is short and bilingual. */
export class PlatformUnavailable extends Error {}

/** The real platform (or the emulator named by SHOPIFY_ADMIN_BASE_URL), through the outbound policy. */
export function httpTransport(conn: Connection): Transport {
  const url = adminGraphqlUrl(conn.domain, conn.apiVersion, shopifySettings());
  return async (body, signal) => {
    let res: Response;
    const timeout = AbortSignal.timeout(30_000);
    try {
      res = await outboundFetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Shopify-Access-Token': conn.accessToken, 'X-Shopify-Shop-Domain': conn.domain },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (e) {
      if (signal?.aborted) throw e;
      throw new PlatformUnavailable(`Shopify could not be reached: ${describeOutboundError(e).message}`);
    }
    const text = await res.text();
    let json: GraphqlReply['json'] = null;
    try {
      json = JSON.parse(text) as GraphqlReply['json'];
    } catch {
      /* not JSON: judged by the status below */
    }
    return { status: res.status, json };
  };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Milliseconds until the bucket holds `requested` points again (at least 50 ms, at most a minute). */
export function throttleWaitMs(cost: Cost | undefined, fallbackMs: number): number {
  const ts = cost?.throttleStatus;
  if (!ts || !(ts.restoreRate > 0)) return fallbackMs;
  const requested = cost?.requestedQueryCost ?? Math.min(ts.maximumAvailable, 100);
  const deficit = requested - ts.currentlyAvailable;
  return Math.min(60_000, Math.max(50, Math.ceil((Math.max(deficit, 1) / ts.restoreRate) * 1000)));
}

const MAX_THROTTLED = 30;

/** One Admin API client: asks, waits out THROTTLED, paces itself; counts the throttled replies. */
export class ShopifyGraphql {
  throttled = 0;
  private bucket: { available: number; max: number; rate: number; at: number; lastCost: number } | null = null;

  constructor(private readonly transport: Transport) {}

  /** The estimated wait before a query of the last query's cost fits in the bucket. */
  private paceMs(): number {
    const b = this.bucket;
    if (!b) return 0;
    const now = Math.min(b.max, b.available + ((Date.now() - b.at) / 1000) * b.rate);
    return now >= b.lastCost ? 0 : Math.ceil(((b.lastCost - now) / b.rate) * 1000);
  }

  async query<T>(query: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    for (let throttledHere = 0; ; ) {
      const pace = this.paceMs();
      if (pace > 0) await sleep(Math.min(pace, 60_000), signal);
      const reply = await this.transport({ query, variables }, signal);
      const cost = reply.json?.extensions?.cost;
      const ts = cost?.throttleStatus;
      if (ts && ts.restoreRate > 0) {
        this.bucket = { available: ts.currentlyAvailable, max: ts.maximumAvailable, rate: ts.restoreRate, at: Date.now(), lastCost: cost?.requestedQueryCost ?? 0 };
      }
      // `errors` is a list in GraphQL replies and a plain string in some HTTP refusals (401)
      const errors = Array.isArray(reply.json?.errors) ? reply.json.errors : [];
      const throttled = reply.status === 429 || errors.some((e) => e?.extensions?.code === 'THROTTLED');
      if (throttled) {
        this.throttled++;
        if (++throttledHere > MAX_THROTTLED) throw new PlatformUnavailable(`Shopify kept throttling (${MAX_THROTTLED} times in a row) / Shopify 持续限流`);
        this.bucket = null;
        await sleep(throttleWaitMs(cost, Math.min(30_000, 500 * 2 ** Math.min(throttledHere, 6))), signal);
        continue;
      }
      if (reply.status === 401 || reply.status === 403) {
        throw new PlatformRefused(`Shopify refused the access token (HTTP ${reply.status}): connect the shop again with a valid token / Shopify 拒绝了访问令牌，请重新连接店铺`);
      }
      if (reply.status === 402 || reply.status === 404 || reply.status === 423) {
        throw new PlatformRefused(`Shopify answered HTTP ${reply.status}: the shop is unavailable, frozen or the API version is unknown / Shopify 返回 HTTP ${reply.status}：店铺不可用、被冻结或 API 版本未知`);
      }
      if (reply.status >= 500 || !reply.json) {
        throw new PlatformUnavailable(`Shopify answered HTTP ${reply.status}${reply.json ? '' : ' without JSON'} / Shopify 返回 HTTP ${reply.status}`);
      }
      if (reply.status >= 400) throw new PlatformRefused(`Shopify refused the query (HTTP ${reply.status}) / Shopify 拒绝了请求（HTTP ${reply.status}）`);
      if (errors.length) {
        const first = String(errors[0]?.message ?? 'error').slice(0, 200);
        const code = errors[0]?.extensions?.code;
        throw new PlatformRefused(`Shopify answered an error${code ? ` (${code})` : ''}: ${first} / Shopify 返回错误${code ? `（${code}）` : ''}：${first}`);
      }
      return (reply.json.data ?? {}) as T;
    }
  }
}
