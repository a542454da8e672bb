/**
 * What an address is for the outbound-call policy (outbound.ts): public, private (reachable only
 * when the operator allows it), forbidden (never: link-local, cloud metadata, multicast,
 * reserved, unspecified), or a name — IPv4 carried in IPv6 (mapped, NAT64, 6to4) judged as the
 * IPv4 address it carries.
 */
import net, { BlockList } from 'node:net';

/** A BlockList of the given subnets. */
export const subnetList = (entries: Array<[string, number, 'ipv4' | 'ipv6']>): BlockList => {
  const b = new BlockList();
  for (const [a, p, t] of entries) b.addSubnet(a, p, t);
  return b;
};

/**
 * The ranges that are not public: `forbidden` never reachable whatever the settings, `private`
 * reachable only when the operator allows private targets. First match wins.
 */
const RANGES: Array<[cls: 'forbidden' | 'private', address: string, prefix: number, en: string, zh: string]> = [
  ['forbidden', '169.254.0.0', 16, 'link-local or cloud metadata', '链路本地或云元数据地址'],
  ['forbidden', '100.100.100.200', 32, 'cloud metadata', '云元数据地址'],
  ['forbidden', '224.0.0.0', 4, 'multicast', '组播地址'],
  ['forbidden', '240.0.0.0', 4, 'reserved', '保留地址'],
  ['forbidden', 'fe80::', 10, 'link-local', '链路本地地址'],
  ['forbidden', 'fd00:ec2::254', 128, 'cloud metadata', '云元数据地址'],
  ['forbidden', 'ff00::', 8, 'multicast', '组播地址'],
  ['forbidden', '::', 128, 'unspecified', '未指定地址'],
  ['private', '127.0.0.0', 8, 'loopback', '本机回环地址'],
  ['private', '0.0.0.0', 8, 'this host', '本机地址'],
  ['private', '10.0.0.0', 8, 'private', '私有网络地址'],
  ['private', '172.16.0.0', 12, 'private', '私有网络地址'],
  ['private', '192.168.0.0', 16, 'private', '私有网络地址'],
  ['private', '100.64.0.0', 10, 'shared address space', '运营商共享地址'],
  ['private', '192.0.0.0', 24, 'IETF protocol assignments', '协议保留地址'],
  ['private', '198.18.0.0', 15, 'benchmarking', '基准测试地址'],
  ['private', '::1', 128, 'loopback', '本机回环地址'],
  ['private', 'fc00::', 7, 'private (unique local)', '私有网络地址（唯一本地）'],
];
const ranges = RANGES.map(([cls, a, p, en, zh]) => ({ cls, en, zh, b: subnetList([[a, p, net.isIPv4(a) ? 'ipv4' : 'ipv6']]) }));

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), else null. */
export function embeddedIPv4(ip: string): string | null {
  if (net.isIPv4(ip)) return ip;
  const m = /^(?:::ffff:(?:0:)?|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (m) return m[1];
  const words = expandIPv6(ip);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  // ::ffff:7f00:1 (mapped, hex), 64:ff9b::7f00:1 (NAT64)
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) return v4(words[6], words[7]);
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) return v4(words[6], words[7]);
  if (words[0] === 0x2002) return v4(words[1], words[2]);
  return null;
}

function expandIPv6(ip: string): number[] | null {
  if (!net.isIPv6(ip)) return null;
  let s = ip.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const [a, b, c, d] = tail[1].split('.').map(Number);
    s = s.slice(0, -tail[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = s.split('::');
  const h = head ? head.split(':') : [];
  const r = rest !== undefined ? (rest ? rest.split(':') : []) : [];
  const fill = rest !== undefined ? 8 - h.length - r.length : 0;
  const all = [...h, ...Array(fill).fill('0'), ...r];
  return all.length === 8 ? all.map((x) => parseInt(x, 16)) : null;
}

export type AddressClass = { cls: 'public' } | { cls: 'name' } | { cls: 'private'; en: string; zh: string } | { cls: 'forbidden'; en: string; zh: string };

/** What an address is: public, private (allowed by a setting), forbidden (never), or a name (not an address). */
export function classifyAddress(ip: string): AddressClass {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v4 = embeddedIPv4(bare);
  const [addr, type] = v4 ? [v4, 'ipv4' as const] : [bare, 'ipv6' as const];
  if (!net.isIP(addr)) return { cls: 'name' };
  const hit = ranges.find((r) => r.b.check(addr, type));
  if (hit) return { cls: hit.cls, en: hit.en, zh: hit.zh };
  return { cls: 'public' };
}

