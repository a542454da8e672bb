import { describe, expect, it } from 'vitest';
import { classifyAddress, embeddedIPv4 } from './addresses.js';
import { checkAddress, checkTarget, describeOutboundError, OutboundError, type OutboundSettings, type Resolver } from './outbound.js';

/** names → addresses, no network */
const fakeDns =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const DNS = fakeDns({
  'api.example.com': ['93.184.216.34'],
  'metadata.example.com': ['169.254.169.254'],
  'ula.example.com': ['fd00::5'],
  'ten.example.com': ['10.1.2.3'],
  'lan.example.com': ['192.168.1.20'],
  'loop.example.com': ['127.0.0.1'],
  'mixed.example.com': ['93.184.216.34', '127.0.0.1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'llm.lan': ['192.168.8.7'],
});
const DEFAULT: OutboundSettings = { allowPrivate: false, allowHosts: [] };
const PRIVATE_OK: OutboundSettings = { allowPrivate: true, allowHosts: [] };

const refusal = async (url: string, settings = DEFAULT) => {
  try {
    await checkTarget(url, { settings, resolve: DNS });
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(OutboundError);
    return e as OutboundError;
  }
};

describe('the outbound-call policy (no network: an injected resolver)', () => {
  it('classifies addresses: forbidden always, private unless allowed, public', () => {
    for (const ip of ['169.254.169.254', '169.254.1.1', 'fe80::1', '100.100.100.200', 'fd00:ec2::254', '224.0.0.1', '::']) {
      expect(classifyAddress(ip).cls, ip).toBe('forbidden');
    }
    for (const ip of ['127.0.0.1', '127.8.8.8', '::1', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '100.64.0.1', '0.0.0.0', 'fd00::1', 'fc00::1', '::ffff:10.0.0.1', '::ffff:7f00:1']) {
      expect(classifyAddress(ip).cls, ip).toBe('private');
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111']) expect(classifyAddress(ip).cls, ip).toBe('public');
    expect(classifyAddress('[::1]').cls).toBe('private');
    expect(embeddedIPv4('::ffff:169.254.169.254')).toBe('169.254.169.254');
    expect(classifyAddress('::ffff:169.254.169.254').cls).toBe('forbidden');
    expect(classifyAddress('64:ff9b::a9fe:a9fe').cls).toBe('forbidden');
    expect(classifyAddress('2002:7f00:1::').cls).toBe('private');
  });

  it('refuses 169.254.169.254, fd00::/8, 10.x, 192.168.x and names resolving to them', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00::5]/v1',
      'http://10.0.0.8:8000/v1',
      'http://192.168.1.1/v1',
      'http://127.0.0.1:11434/v1',
      'http://[::1]/v1',
      'http://0.0.0.0/v1',
      'https://metadata.example.com/v1',
      'https://ula.example.com/v1',
      'https://ten.example.com/v1',
      'https://lan.example.com/v1',
      'https://loop.example.com/v1',
      'https://mapped.example.com/v1',
      // one refused address among several refuses the name
      'https://mixed.example.com/v1',
    ]) {
      const e = await refusal(url);
      expect(e?.kind, url).toBe('policy');
      expect(e?.message, url).toMatch(/^refused by the outbound policy: .+ \/ 出站策略拒绝：/);
    }
    expect(await refusal('https://api.example.com/v1')).toBeNull();
  });

  it('OUTBOUND_ALLOW_PRIVATE allows loopback and private ranges, never link-local or metadata', async () => {
    expect(await refusal('http://127.0.0.1:11434/v1', PRIVATE_OK)).toBeNull();
    expect(await refusal('https://lan.example.com/v1', PRIVATE_OK)).toBeNull();
    expect(await refusal('http://[fd00::5]/v1', PRIVATE_OK)).toBeNull();
    expect((await refusal('http://169.254.169.254/', PRIVATE_OK))?.kind).toBe('policy');
    expect((await refusal('https://metadata.example.com/', PRIVATE_OK))?.kind).toBe('policy');
    expect((await refusal('http://[fe80::1]/', PRIVATE_OK))?.kind).toBe('policy');
  });

  it('OUTBOUND_ALLOW_HOSTS allows the hosts, addresses and ranges it names only', async () => {
    const hosts = { allowPrivate: false, allowHosts: ['llm.lan', '10.0.0.8', '192.168.1.0/24'] };
    expect(await refusal('http://llm.lan:8000/v1', hosts)).toBeNull();
    expect(await refusal('http://10.0.0.8/v1', hosts)).toBeNull();
    expect(await refusal('https://lan.example.com/v1', hosts)).toBeNull(); // 192.168.1.20 in the range
    expect((await refusal('http://10.0.0.9/v1', hosts))?.kind).toBe('policy');
    expect((await refusal('https://loop.example.com/v1', hosts))?.kind).toBe('policy');
    expect(() => checkAddress('llm.lan', '169.254.169.254', { allowPrivate: false, allowHosts: ['llm.lan'] })).toThrow(OutboundError);
  });

  it('refuses URLs that are not http(s) or carry credentials; a name that does not resolve is a DNS failure', async () => {
    expect((await refusal('ftp://api.example.com/'))?.kind).toBe('policy');
    expect((await refusal('http://user:pw@api.example.com/'))?.kind).toBe('policy');
    const e = await refusal('https://nowhere.example.com/v1');
    expect(e?.kind).toBe('dns');
    expect(e?.message).toMatch(/^DNS failure: .+ \/ 域名解析失败/);
  });

  it('classifies failures in both languages, without the target’s text', () => {
    const wrap = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });
    expect(describeOutboundError(wrap(Object.assign(new Error('x'), { code: 'ENOTFOUND' }))).kind).toBe('dns');
    expect(describeOutboundError(wrap(Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }))).kind).toBe('timeout');
    expect(describeOutboundError(wrap(Object.assign(new Error('x'), { code: 'CERT_HAS_EXPIRED' }))).kind).toBe('tls');
    expect(describeOutboundError(wrap(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).kind).toBe('connect');
    const status = describeOutboundError(new Error('401 {"error":"secret body of the target"}'), 401);
    expect(status).toEqual({ kind: 'status', message: 'HTTP status 401 / 对方返回 HTTP 401' });
    const bad = describeOutboundError(new SyntaxError('Unexpected token < in JSON: <html>target page</html>'));
    expect(bad.kind).toBe('reply');
    expect(bad.message).not.toContain('target page');
    for (const d of [status, bad]) expect(d.message).toMatch(/ \/ \p{Script=Han}/u);
  });
});
