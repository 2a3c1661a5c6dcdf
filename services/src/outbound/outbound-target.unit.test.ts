import { describe, expect, it } from 'vitest';
import type { Resolver } from './guarded-lookup.js';
import { emptyOutboundAllowlist, parseOutboundAllowlist } from './outbound-allowlist.js';
import { OutboundError } from './outbound-error.js';
import { createOutboundTargetCheck } from './outbound-target.js';

/** Names resolve from a table, as DNS would answer them. */
const table: Record<string, string[]> = {
  'shop.example': ['93.184.216.34'],
  'rebind.example': ['93.184.216.34', '10.0.0.5'],
  'metadata.example': ['169.254.169.254'],
  'local.example': ['127.0.0.1'],
};
const resolve: Resolver = async (hostname) => {
  const found = table[hostname];
  if (!found) throw new Error('ENOTFOUND');
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

async function refusal(check: (url: string) => Promise<void>, url: string) {
  try {
    await check(url);
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundError);
    return { reason: (error as OutboundError).reason, message: (error as OutboundError).message };
  }
  return null;
}

describe('the outbound target check (before a crawl is queued)', () => {
  const check = createOutboundTargetCheck({ allowlist: emptyOutboundAllowlist, resolve });

  it('lets public addresses through', async () => {
    expect(await refusal(check, 'https://shop.example/pricing')).toBeNull();
    expect(await refusal(check, 'http://93.184.216.34/')).toBeNull();
  });

  it('refuses private, loopback and metadata addresses, written or resolved, with the reason', async () => {
    expect(await refusal(check, 'http://169.254.169.254/latest/meta-data')).toEqual({
      reason: 'blocked-address',
      message: '169.254.169.254 is in a cloud metadata service and is never fetched.',
    });
    expect(await refusal(check, 'http://[::ffff:127.0.0.1]/')).toMatchObject({ reason: 'blocked-address' });
    expect(await refusal(check, 'http://metadata.example/')).toEqual({
      reason: 'blocked-address',
      message:
        'metadata.example points to 169.254.169.254, which is in a cloud metadata service, and is never fetched.',
    });
    // One private answer among public ones refuses the name.
    expect(await refusal(check, 'http://rebind.example/')).toMatchObject({ reason: 'blocked-address' });
  });

  it('refuses what is not a web address, credentials and names that do not resolve', async () => {
    expect(await refusal(check, 'ftp://shop.example/')).toMatchObject({ reason: 'unsupported-scheme' });
    expect(await refusal(check, 'https://user:secret@shop.example/')).toMatchObject({ reason: 'credentials-in-url' });
    expect(await refusal(check, 'not a url')).toMatchObject({ reason: 'invalid-url' });
    expect(await refusal(check, 'https://nowhere.example/')).toEqual({
      reason: 'unresolvable',
      message: 'The site nowhere.example could not be found.',
    });
  });

  it('lets the allowlist through (the local test sites), and nothing else', async () => {
    const allowing = createOutboundTargetCheck({ allowlist: parseOutboundAllowlist('127.0.0.1'), resolve });
    expect(await refusal(allowing, 'http://127.0.0.1:8123/')).toBeNull();
    expect(await refusal(allowing, 'http://local.example/')).toBeNull();
    expect(await refusal(allowing, 'http://10.0.0.7/')).toMatchObject({ reason: 'blocked-address' });
  });
});
