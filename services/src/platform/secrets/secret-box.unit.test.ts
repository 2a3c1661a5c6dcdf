import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox, maskSecret, SecretBoxError } from './secret-box.js';
import { loadSecretsKey, parseSecretsKey } from './secrets-key.js';

const key = (fill: number) => new Uint8Array(32).fill(fill);

describe('secret box', () => {
  it('opens what it sealed, and never stores the plain text', () => {
    const box = createSecretBox({ key: key(1) });
    const sealed = box.seal('123456:ABC-bot-token');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('ABC-bot-token');
    expect(box.open(sealed)).toBe('123456:ABC-bot-token');
  });

  it('seals the same text differently each time (fresh nonce)', () => {
    const box = createSecretBox({ key: key(1) });
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a value sealed under another key, altered, or opened in another context', () => {
    const sealed = createSecretBox({ key: key(1) }).seal('token', 'integration-a');
    expect(() => createSecretBox({ key: key(2) }).open(sealed, 'integration-a')).toThrow(SecretBoxError);
    expect(() => createSecretBox({ key: key(1) }).open(sealed, 'integration-b')).toThrow(SecretBoxError);
    expect(createSecretBox({ key: key(1) }).open(sealed, 'integration-a')).toBe('token');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[2]!, 'base64url');
    body[0] = body[0]! ^ 1;
    const altered = [parts[0], parts[1], body.toString('base64url'), parts[3]].join('.');
    expect(() => createSecretBox({ key: key(1) }).open(altered, 'integration-a')).toThrow(SecretBoxError);
    expect(() => createSecretBox({ key: key(1) }).open('plain-token')).toThrow(SecretBoxError);
  });

  it('refuses a key of the wrong size', () => {
    expect(() => createSecretBox({ key: new Uint8Array(16) })).toThrow(SecretBoxError);
  });

  it('masks to the last 4 characters', () => {
    expect(maskSecret('123456:ABCDEFGH')).toBe('********EFGH');
    expect(maskSecret('abc')).toBe('********');
  });
});

describe('secrets key', () => {
  it('reads SECRETS_KEY as hex or base64', () => {
    const hex = 'ab'.repeat(32);
    expect(Buffer.from(parseSecretsKey(hex)).toString('hex')).toBe(hex);
    const b64 = Buffer.alloc(32, 7).toString('base64');
    expect(parseSecretsKey(b64)).toEqual(new Uint8Array(32).fill(7));
    expect(() => parseSecretsKey('short')).toThrow(/32 bytes/);
  });

  it('makes one key under DATA_DIR and keeps it across loads (embedded default)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kesher-secrets-'));
    const first = loadSecretsKey({
      DATA_DIR: dir,
      NODE_ENV: 'development',
      SECRETS_KEY: undefined,
      AUTH_SECRET: undefined,
    });
    const second = loadSecretsKey({
      DATA_DIR: dir,
      NODE_ENV: 'development',
      SECRETS_KEY: undefined,
      AUTH_SECRET: undefined,
    });
    expect(first).toEqual(second);
    expect(first.length).toBe(32);
    expect(statSync(join(dir, 'secrets-key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'secrets-key'), 'utf8')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('without SECRETS_KEY, derives one from AUTH_SECRET that every process of the deployment shares', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kesher-secrets-'));
    const config = { DATA_DIR: dir, NODE_ENV: 'production', SECRETS_KEY: undefined, AUTH_SECRET: 'a'.repeat(40) };
    const derived = loadSecretsKey(config);
    expect(derived).toEqual(loadSecretsKey(config));
    expect(derived).not.toEqual(loadSecretsKey({ ...config, AUTH_SECRET: 'b'.repeat(40) }));
    expect(Buffer.from(derived).toString('utf8')).not.toContain('aaaa');
    expect(derived).not.toEqual(loadSecretsKey({ ...config, SECRETS_KEY: 'cd'.repeat(32) }));
  });

  it('is required in production', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kesher-secrets-'));
    expect(() =>
      loadSecretsKey({ DATA_DIR: dir, NODE_ENV: 'production', SECRETS_KEY: undefined, AUTH_SECRET: undefined }),
    ).toThrow(/SECRETS_KEY/);
  });
});
