/**
 * The outbound-call policy (issue 25): every server-side request to an address a user typed — a
 * model server's endpoint, its connection test, embeddings; webhooks, shop platforms and trainers
 * when they come — goes through `outboundFetch` (or `checkTarget` first), never plain `fetch`.
 *
 * - The name is resolved (through `useResolver`'s resolver: the system's, or a test's) and EVERY
 *   address it gives is classified. Refused always: link-local (169.254.0.0/16, fe80::/10, the
 *   metadata address 169.254.169.254 among them, and the cloud metadata addresses
 *   100.100.100.200 and fd00:ec2::254), multicast, reserved and unspecified (`::`) addresses.
 *   Refused unless the operator allows them: loopback (127/8, ::1), private ranges (10/8,
 *   172.16/12, 192.168/16, fc00::/7 — fd00::/8 included), shared address space (100.64/10) and
 *   0.0.0.0/8. `OUTBOUND_ALLOW_PRIVATE=1` allows those for every target (a self-hosted model
 *   server on the LAN); `OUTBOUND_ALLOW_HOSTS=llm.lan,10.0.0.5,192.168.8.0/24` allows them for the
 *   named hosts, addresses and ranges only.
 * - The check is repeated when the connection is made, on the address that is then connected to
 *   (the connector resolves, checks and connects to the address it checked: a name that answers
 *   a public address to the first look-up and 127.0.0.1 to the second gets nowhere — DNS
 *   rebinding). Every redirect hop is a new connection, so a redirect to a refused address is
 *   refused the same way.
 * - A failure becomes a short classified reason (`describeOutboundError`): refused by policy, DNS
 *   failure, timeout, TLS, could not connect, HTTP status N, bad reply — in both languages, never
 *   the target's reply body.
 *
 * The settings are read at each call (the API server and the workers of one deployment read the
 * same environment); `configureOutbound` adds what the app's Config says (tests set it there).
 */
import dns from 'node:dns';
import net from 'node:net';
import type { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { classifyAddress, subnetList } from './addresses.js';

export interface OutboundSettings {
  /** loopback and private ranges allowed for every target (OUTBOUND_ALLOW_PRIVATE=1) */
  allowPrivate: boolean;
  /** hosts, addresses or CIDR ranges for which loopback and private addresses are allowed (OUTBOUND_ALLOW_HOSTS) */
  allowHosts: string[];
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** name → every address it resolves to (tests inject one; no network). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type OutboundFailure = 'policy' | 'dns' | 'timeout' | 'tls' | 'connect' | 'status' | 'reply';

/** A call the policy refused, or a name that did not resolve: classified, bilingual. */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

const flag = (v: string | undefined): boolean => ['1', 'true', 'yes', 'on'].includes((v ?? '').trim().toLowerCase());
export const parseHostList = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((x) => x.trim().toLowerCase())
    .filter(Boolean);

let configured: OutboundSettings = { allowPrivate: false, allowHosts: [] };

/** What the app's Config allows on top of the environment (server/app.ts). */
export function configureOutbound(s: Partial<OutboundSettings>): void {
  configured = { allowPrivate: !!s.allowPrivate, allowHosts: [...(s.allowHosts ?? [])] };
}

/** The settings in force now: the environment's, plus the app's Config. */
export function outboundSettings(env: NodeJS.ProcessEnv = process.env): OutboundSettings {
  return {
    allowPrivate: configured.allowPrivate || flag(env.OUTBOUND_ALLOW_PRIVATE),
    allowHosts: [...configured.allowHosts, ...parseHostList(env.OUTBOUND_ALLOW_HOSTS)],
  };
}

const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};
let resolver: Resolver = systemResolver;

/** Replaces the resolver of every outbound call (tests); no argument restores the system's. */
export function useResolver(r?: Resolver): void {
  resolver = r ?? systemResolver;
}

/** Whether the settings' allow-list names this host (by name) or this address (exactly or by range). */
function allowListed(settings: OutboundSettings, hostname: string, address: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  for (const entry of settings.allowHosts) {
    const e = entry.replace(/^\[|\]$/g, '');
    if (e === host || e === address) return true;
    const cidr = /^(.+)\/(\d{1,3})$/.exec(e);
    if (cidr && net.isIP(cidr[1]) && net.isIP(address)) {
      const t = net.isIPv4(cidr[1]) ? 'ipv4' : 'ipv6';
      try {
        if (subnetList([[cidr[1], Number(cidr[2]), t]]).check(address, net.isIPv4(address) ? 'ipv4' : 'ipv6')) return true;
      } catch {
        /* a malformed range allows nothing */
      }
    }
  }
  return false;
}

const refusedBy = (address: string, c: { en: string; zh: string }, hint: boolean) =>
  new OutboundError(
    'policy',
    `refused by the outbound policy: ${address} is a ${c.en} address${hint ? ' (an operator may allow it: OUTBOUND_ALLOW_PRIVATE or OUTBOUND_ALLOW_HOSTS)' : ''} / 出站策略拒绝：${address} 是${c.zh}${hint ? '（可由运维通过 OUTBOUND_ALLOW_PRIVATE 或 OUTBOUND_ALLOW_HOSTS 放行）' : ''}`,
  );

/** Throws the policy's refusal for `address` reached as `hostname`, or returns. */
export function checkAddress(hostname: string, address: string, settings: OutboundSettings = outboundSettings()): void {
  const c = classifyAddress(address);
  if (c.cls === 'public') return;
  if (c.cls === 'name') throw refusedBy(address, { en: 'not an IP', zh: '非 IP 地址' }, false);
  if (c.cls === 'forbidden') throw refusedBy(address, c, false);
  if (settings.allowPrivate || allowListed(settings, hostname, address)) return;
  throw refusedBy(address, c, true);
}

/** A URL's shape: http(s), a host, no credentials in it. The problem as "english / 中文", or null. */
export function urlProblem(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'is not a valid URL / 不是有效的网址';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must start with http:// or https:// / 必须以 http:// 或 https:// 开头';
  if (!u.hostname) return 'has no host / 缺少主机名';
  if (u.username || u.password) return 'must not hold a user name or password / 不能包含用户名或密码';
  return null;
}

/**
 * A target as the policy sees it before a call: the URL checked, its host resolved (the
 * injected resolver) and every address classified. Throws OutboundError ('policy' or 'dns').
 */
export async function checkTarget(raw: string | URL, opts: { settings?: OutboundSettings; resolve?: Resolver } = {}): Promise<{ url: URL; addresses: ResolvedAddress[] }> {
  const problem = urlProblem(String(raw));
  if (problem) throw new OutboundError('policy', `refused by the outbound policy: the address ${problem.split(' / ')[0]} / 出站策略拒绝：地址${problem.split(' / ')[1]}`);
  const url = new URL(String(raw));
  const addresses = await resolveChecked(url.hostname, opts.settings ?? outboundSettings(), opts.resolve ?? resolver);
  return { url, addresses };
}

/** Every address of `hostname` (an IP literal is its own), each checked; throws when any is refused. */
async function resolveChecked(hostname: string, settings: OutboundSettings, resolve: Resolver): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIPv6(host) ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(host);
    } catch (e) {
      const code = (e as { code?: string }).code ?? '';
      throw new OutboundError('dns', `DNS failure: ${host} does not resolve${code ? ` (${code})` : ''} / 域名解析失败：${host}`);
    }
    if (!addresses.length) throw new OutboundError('dns', `DNS failure: ${host} has no address / 域名解析失败：${host} 没有地址`);
  }
  // every address, not only the first: a name that also answers 127.0.0.1 is refused as a whole
  for (const a of addresses) checkAddress(host, a.address, settings);
  return addresses;
}

// ---------------------------------------------------------------------------------------------
// The connector: resolve, check, connect to the address checked

// undici loads with the first outbound call, not at start (≈100 ms of a start's CPU: docs/performance.md)
type Undici = typeof import('undici');
let undici: Promise<Undici> | null = null;
const loadUndici = (): Promise<Undici> => (undici ??= import('undici'));

/** A connector that resolves, checks under `settings` and connects to the address it checked. */
const policyConnector =
  (base: buildConnector.connector, settings: OutboundSettings, resolve: Resolver): buildConnector.connector =>
  (opts, callback) => {
    resolveChecked(opts.hostname, settings, resolve).then(
      (addresses) => {
        // the host header and TLS server name stay the name (certificates are checked against it)
        const servername = net.isIP(opts.hostname.replace(/^\[|\]$/g, '')) ? undefined : opts.hostname;
        base({ ...opts, hostname: addresses[0].address, ...(servername ? { servername } : {}) }, callback);
      },
      (err: Error) => callback(err, null),
    );
  };

/**
 * One connection pool per (settings, resolver): a kept-alive connection was checked under the
 * settings it was made with, so a change of settings (or of the resolver, in tests) starts a new
 * pool instead of reusing one made when more was allowed.
 */
const pools = new Map<string, Agent>();
const resolverIds = new WeakMap<Resolver, number>();
let resolverSeq = 0;
let baseConnector: buildConnector.connector | null = null;
function agentFor(u: Undici, settings: OutboundSettings, resolve: Resolver): Agent {
  if (!resolverIds.has(resolve)) resolverIds.set(resolve, ++resolverSeq);
  const key = JSON.stringify([settings.allowPrivate, [...settings.allowHosts].sort(), resolverIds.get(resolve)]);
  let agent = pools.get(key);
  if (!agent) {
    for (const [k, old] of pools) {
      pools.delete(k);
      void old.close().catch(() => undefined); // lets calls in flight finish
    }
    baseConnector ??= u.buildConnector({ timeout: 10_000 });
    agent = new u.Agent({ connect: policyConnector(baseConnector, settings, resolve), connections: 16 });
    pools.set(key, agent);
  }
  return agent;
}

/**
 * `fetch` under the policy (the OpenAI client's `fetch` option takes it). Redirects are followed
 * by undici, each hop connecting through the policy's connector.
 */
export const outboundFetch = (async (input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) => {
  const u = await loadUndici();
  return u.fetch(input, { ...init, dispatcher: agentFor(u, outboundSettings(), resolver) });
}) as unknown as typeof fetch;

// ---------------------------------------------------------------------------------------------
// Classified failures

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|HOSTNAME_MISMATCH|ERR_OSSL)/;
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'ENODATA', 'EAI_FAIL']);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** The error and its causes, outermost first. */
function causes(e: unknown): unknown[] {
  const out: unknown[] = [];
  for (let c = e; c && out.length < 8; c = (c as { cause?: unknown }).cause) out.push(c);
  return out;
}

/**
 * A failed outbound call as a short reason in both languages ("english / 中文"); never the
 * target's body. `status`: the HTTP status the target answered, when there was one.
 */
export function describeOutboundError(e: unknown, status?: number): { kind: OutboundFailure; message: string } {
  const chain = causes(e);
  const own = chain.find((c): c is OutboundError => c instanceof OutboundError);
  if (own) return { kind: own.kind, message: own.message };
  const codes = chain.map((c) => String((c as { code?: unknown })?.code ?? ''));
  if (codes.some((c) => DNS_CODES.has(c))) return { kind: 'dns', message: 'DNS failure: the host does not resolve / 域名解析失败' };
  if (codes.some((c) => TIMEOUT_CODES.has(c)) || chain.some((c) => (c as Error)?.name === 'TimeoutError')) {
    return { kind: 'timeout', message: 'timeout: no reply in time / 超时：未及时响应' };
  }
  if (codes.some((c) => TLS_CODES.test(c)) || chain.some((c) => /certificate|tls|ssl/i.test((c as Error)?.message ?? ''))) {
    return { kind: 'tls', message: 'TLS failure: the secure connection could not be made / TLS 错误：无法建立安全连接' };
  }
  if (status) return { kind: 'status', message: `HTTP status ${status} / 对方返回 HTTP ${status}` };
  if (codes.some((c) => /^(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/.test(c))) {
    return { kind: 'connect', message: `could not connect (${codes.find((c) => c)}) / 无法连接` };
  }
  return { kind: 'reply', message: 'bad reply: the server did not answer as expected / 响应无效：对方的回复不符合预期' };
}
