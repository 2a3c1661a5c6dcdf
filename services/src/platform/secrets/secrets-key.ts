import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../config/config.js';
import { SecretBoxError } from './secret-box.js';

const KEY_FILE = 'secrets-key';

/**
 * The key that seals third-party secrets, the first of:
 * - SECRETS_KEY (32 bytes as 64 hex characters or base64/base64url);
 * - derived from AUTH_SECRET (HKDF-SHA256, its own label), because every process of a deployment already
 *   shares that one — set SECRETS_KEY to be free to rotate AUTH_SECRET without losing stored tokens;
 * - outside production, a random key made once and kept under DATA_DIR, so the embedded default's secrets
 *   survive a restart. Production without either refuses to start: API and workers could not agree.
 */
export function loadSecretsKey(
  config: Pick<Config, 'SECRETS_KEY' | 'AUTH_SECRET' | 'DATA_DIR' | 'NODE_ENV'>,
): Uint8Array {
  if (config.SECRETS_KEY) return parseSecretsKey(config.SECRETS_KEY);
  if (config.AUTH_SECRET) {
    return new Uint8Array(hkdfSync('sha256', config.AUTH_SECRET, 'kesher', 'kesher secrets key v1', 32));
  }
  if (config.NODE_ENV === 'production') {
    throw new SecretBoxError(
      'SECRETS_KEY (32 random bytes: openssl rand -hex 32) or AUTH_SECRET is required in production',
    );
  }
  const file = join(resolve(config.DATA_DIR), KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    // 'wx': two processes starting on one DATA_DIR never overwrite each other's key.
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return parseSecretsKey(readFileSync(file, 'utf8').trim());
}

export function parseSecretsKey(text: string): Uint8Array {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 32)
    throw new SecretBoxError(
      'SECRETS_KEY must be 32 bytes: 64 hex characters or 44 base64 characters (openssl rand -hex 32)',
    );
  return new Uint8Array(bytes);
}
