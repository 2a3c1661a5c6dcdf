import { describe, expect, it } from 'vitest';
import { demoAccountsEnabled, isEmbedded, loadConfig } from './config.js';

describe('configuration', () => {
  it('runs embedded with nothing set, demo accounts on', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8000);
    expect(config.DATA_DIR).toBe('./data');
    expect(isEmbedded(config)).toBe(true);
    expect(demoAccountsEnabled(config)).toBe(true);
  });
  it('turns demo accounts off as soon as a real service is configured, unless asked for', () => {
    expect(demoAccountsEnabled(loadConfig({ DATABASE_URL: 'postgres://x/y' }))).toBe(false);
    expect(demoAccountsEnabled(loadConfig({ DATABASE_URL: 'postgres://x/y', DEMO_ACCOUNTS: 'true' }))).toBe(true);
  });
  it('refuses demo accounts and a missing secret in production', () => {
    const secret = 's'.repeat(40);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', AUTH_SECRET: secret, DEMO_ACCOUNTS: 'true' })).toThrow(/demo accounts are refused/);
    expect(demoAccountsEnabled(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: secret }))).toBe(false);
  });
  it('takes a consumer-group suffix of safe characters; empty counts as unset', () => {
    expect(loadConfig({ CONSUMER_GROUP_SUFFIX: 'kesher_test_1a2b.c-3' }).CONSUMER_GROUP_SUFFIX).toBe('kesher_test_1a2b.c-3');
    expect(loadConfig({ CONSUMER_GROUP_SUFFIX: '' }).CONSUMER_GROUP_SUFFIX).toBeUndefined();
    expect(() => loadConfig({ CONSUMER_GROUP_SUFFIX: 'a b' })).toThrow(/CONSUMER_GROUP_SUFFIX/);
  });
  it('explains a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
