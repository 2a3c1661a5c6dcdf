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
    expect(() => loadConfig({ NODE_ENV: 'production', AUTH_SECRET: secret, DEMO_ACCOUNTS: 'true' })).toThrow(
      /demo accounts are refused/,
    );
    expect(demoAccountsEnabled(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: secret }))).toBe(false);
  });
  it('takes a consumer-group suffix of safe characters; empty counts as unset', () => {
    expect(loadConfig({ CONSUMER_GROUP_SUFFIX: 'kesher_test_1a2b.c-3' }).CONSUMER_GROUP_SUFFIX).toBe(
      'kesher_test_1a2b.c-3',
    );
    expect(loadConfig({ CONSUMER_GROUP_SUFFIX: '' }).CONSUMER_GROUP_SUFFIX).toBeUndefined();
    expect(() => loadConfig({ CONSUMER_GROUP_SUFFIX: 'a b' })).toThrow(/CONSUMER_GROUP_SUFFIX/);
  });
  it('trusts no proxy by default; TRUST_PROXY names them as Fastify takes them', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/2', '1.2.3'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
  });
  it('serves metrics to operators only: a token of 16+ characters, or a port on 127.0.0.1', () => {
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '', METRICS_PORT: '' })).toMatchObject({
      METRICS_TOKEN: undefined,
      METRICS_PORT: undefined,
      METRICS_HOST: '127.0.0.1',
    });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
  });
  it('explains a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
