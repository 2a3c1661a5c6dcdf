import { isIP } from 'node:net';

/**
 * An IP address as its bytes: 4 for IPv4, 16 for IPv6. Ranges are compared on bytes rather than on
 * strings because one address has many spellings (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `0:0:0:0:0:ffff:7f00:1`),
 * and a guard that compares spellings is a guard with holes.
 */
export type IpBytes = Uint8Array;

/** A range of addresses: the first `prefix` bits of `network`. */
export interface Cidr {
  network: IpBytes;
  prefix: number;
}

/** The bytes of an address, or null when the text is not one. Square brackets and an IPv6 zone (`%eth0`) are allowed. */
export function parseIp(text: string): IpBytes | null {
  let address = text.trim();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  const version = isIP(address);
  if (version === 4) return parseIpv4(address);
  if (version === 6) return parseIpv6(address);
  return null;
}

function parseIpv4(address: string): IpBytes {
  return Uint8Array.from(address.split('.').map(Number));
}

/** `isIP` has already said it is valid IPv6, so only the shape has to be unfolded here. */
function parseIpv6(address: string): IpBytes {
  const bytes = new Uint8Array(16);
  let text = address.toLowerCase();
  // A trailing dotted quad (::ffff:1.2.3.4) is two groups written as IPv4.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let tail: number[] = [];
  if (dotted) {
    const v4 = parseIpv4(dotted[1]!);
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    text = text.slice(0, -dotted[1]!.length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head = '', rest] = text.split('::') as [string, string | undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...new Array<number>(8 - left.length - right.length - tail.length).fill(0), ...right, ...tail];
  all.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/** `10.0.0.0/8`, `fc00::/7`, or a single address (a full-length prefix). Null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const [address, prefixText, extra] = text.trim().split('/');
  if (address === undefined || extra !== undefined) return null;
  const network = parseIp(address);
  if (!network) return null;
  const bits = network.length * 8;
  if (prefixText === undefined) return { network, prefix: bits };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= bits ? { network, prefix } : null;
}

export function cidrContains(cidr: Cidr, address: IpBytes): boolean {
  if (cidr.network.length !== address.length) return false;
  let bits = cidr.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((cidr.network[i]! & mask) !== (address[i]! & mask)) return false;
  }
  return true;
}

/**
 * The IPv4 address an IPv6 address carries, when it is one of the forms that reach an IPv4 host:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), the deprecated IPv4-compatible
 * (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d and the local-use 64:ff9b:1::/48) and 6to4 (2002:aabb:ccdd::).
 * A guard that only looked at the IPv6 ranges would let `::ffff:127.0.0.1` through.
 */
export function embeddedIpv4(address: IpBytes): IpBytes | null {
  if (address.length !== 16) return null;
  const zeros = (from: number, to: number) => address.subarray(from, to).every((byte) => byte === 0);
  const last4 = address.slice(12, 16);
  if (zeros(0, 10) && address[10] === 0xff && address[11] === 0xff) return last4;
  if (zeros(0, 8) && address[8] === 0xff && address[9] === 0xff && zeros(10, 12)) return last4;
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && address[15] === 1)) return last4;
  if (address[0] === 0x00 && address[1] === 0x64 && address[2] === 0xff && address[3] === 0x9b) {
    if (zeros(4, 12) || (address[4] === 0 && address[5] === 1)) return last4;
  }
  if (address[0] === 0x20 && address[1] === 0x02) return address.slice(2, 6);
  return null;
}

export function formatIp(address: IpBytes): string {
  if (address.length === 4) return Array.from(address).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((address[i]! << 8) | address[i + 1]!).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}
