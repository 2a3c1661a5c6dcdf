import { describe, expect, it } from 'vitest';
import { classifyAddress, createAddressPolicy } from './address-policy.js';
import { cidrContains, embeddedIpv4, formatIp, parseCidr, parseIp } from './ip-address.js';
import { OutboundAllowlistSchema, parseOutboundAllowlist } from './outbound-allowlist.js';

describe('IP addresses', () => {
  it('reads every spelling of an IPv6 address to the same bytes', () => {
    const forms = [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '[::FFFF:7F00:0001]',
      '::ffff:127.0.0.1%lo',
    ];
    const spelled = forms.map((form) => formatIp(parseIp(form)!));
    expect(new Set(spelled).size).toBe(1);
    expect(formatIp(embeddedIpv4(parseIp('::ffff:7f00:1')!)!)).toBe('127.0.0.1');
  });

  it('rejects what is not an address', () => {
    for (const text of ['', 'localhost', '1.2.3', '256.1.1.1', '::g', '1.2.3.4/8', 'example.com'])
      expect(parseIp(text)).toBeNull();
  });

  it('matches CIDR ranges on bits, not on text', () => {
    const cgnat = parseCidr('100.64.0.0/10')!;
    expect(cidrContains(cgnat, parseIp('100.127.255.255')!)).toBe(true);
    expect(cidrContains(cgnat, parseIp('100.128.0.0')!)).toBe(false);
    expect(cidrContains(parseCidr('fc00::/7')!, parseIp('fdab::1')!)).toBe(true);
    expect(cidrContains(parseCidr('fc00::/7')!, parseIp('127.0.0.1')!)).toBe(false);
    expect(parseCidr('10.0.0.0/33')).toBeNull();
    expect(parseCidr('10.0.0.0/x')).toBeNull();
  });
});

describe('which addresses are never fetched', () => {
  const cases: Array<[string, ReturnType<typeof classifyAddress>]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade-nat'],
    ['100.127.1.1', 'carrier-grade-nat'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    // IPv6 forms that reach an IPv4 host are judged by that host.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['::10.0.0.1', 'private'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['2001:0:4136:e378::1', 'reserved'],
    ['not an address', 'invalid'],
    // Ordinary internet addresses.
    ['93.184.216.34', null],
    ['172.32.0.1', null],
    ['100.128.0.1', null],
    ['2606:4700::1111', null],
    ['::ffff:8.8.8.8', null],
    ['2002:0808:0808::1', null],
  ];
  it.each(cases)('%s → %s', (address, kind) => expect(classifyAddress(address)).toBe(kind));
});

describe('the allowlist', () => {
  it('lets named hosts and covered addresses through, nothing else', () => {
    const policy = createAddressPolicy(parseOutboundAllowlist(' site.test , 127.0.0.2/32,::1 '));
    expect(policy.check('site.test', '127.0.0.1')).toEqual({ allowed: true });
    expect(policy.check('SITE.TEST.', '10.0.0.1')).toEqual({ allowed: true });
    expect(policy.check('other.test', '127.0.0.2')).toEqual({ allowed: true });
    expect(policy.check('other.test', '::ffff:127.0.0.2')).toEqual({ allowed: true });
    expect(policy.check('other.test', '::1')).toEqual({ allowed: true });
    expect(policy.check('other.test', '127.0.0.1')).toEqual({ allowed: false, kind: 'loopback' });
    expect(policy.check('other.test', '169.254.169.254')).toEqual({ allowed: false, kind: 'metadata' });
    expect(policy.check('other.test', '8.8.8.8')).toEqual({ allowed: true });
  });

  it('is empty by default and refuses malformed entries by name', () => {
    expect(parseOutboundAllowlist(undefined)).toEqual({ hosts: new Set(), ranges: [] });
    expect(parseOutboundAllowlist('')).toEqual({ hosts: new Set(), ranges: [] });
    expect(() => parseOutboundAllowlist('ok.test, http://bad/')).toThrow(/"http:\/\/bad\/"/);
    expect(() => parseOutboundAllowlist('10.0.0.0/40')).toThrow(/10.0.0.0\/40/);
    expect(OutboundAllowlistSchema.safeParse('a b').success).toBe(false);
    expect(OutboundAllowlistSchema.parse(undefined).hosts.size).toBe(0);
  });
});
