import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../platform/config/config.js';

/**
 * The token signing key: AUTH_SECRET when set (production requires it); otherwise a random key kept
 * under DATA_DIR so sessions survive a restart of the embedded default.
 */
export function loadAuthSecret(config: Config): Uint8Array {
  if (config.AUTH_SECRET) return new TextEncoder().encode(config.AUTH_SECRET);
  const file = join(resolve(config.DATA_DIR), 'auth-secret');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}
