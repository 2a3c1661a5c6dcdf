import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encrypts third-party secrets (bot tokens, access tokens, action headers) before they are stored in
 * events or tables, so a copy of the log or a database dump does not hand out anyone's credentials.
 *
 * AES-256-GCM: a fresh 96-bit nonce per seal and the tag checked on open, so a sealed value that was
 * altered, or sealed under another key, refuses to open instead of yielding garbage. An optional context
 * (e.g. the integration's stream) is bound in as associated data: a sealed token copied onto another
 * record does not open there.
 */
export type SecretBox = {
  seal(plainText: string, context?: string): string;
  open(sealed: string, context?: string): string;
};

/** The sealed form: `v1.<nonce>.<cipher text>.<tag>`, each base64url — text, so it fits JSON events. */
const VERSION = 'v1';
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export function createSecretBox({ key }: { key: Uint8Array }): SecretBox {
  if (key.length !== KEY_BYTES) throw new SecretBoxError(`a secrets key is ${KEY_BYTES} bytes, not ${key.length}`);
  const keyBuffer = Buffer.from(key);
  return {
    seal(plainText, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyBuffer, nonce);
      if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
      return [VERSION, nonce, body, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('not a sealed secret');
      const [nonce, body, tag] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
      if (nonce!.length !== NONCE_BYTES || tag!.length !== TAG_BYTES) throw new SecretBoxError('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', keyBuffer, nonce!);
      if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag!);
      try {
        return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError(
          'the sealed secret does not open with this key (altered, or sealed under another key or context)',
        );
      }
    },
  };
}

/**
 * Masks a secret for display: only its last 4 characters, as the spec shows tokens. `tailOnly`: what is
 * given is already just the kept last 4 characters (what a read model stores instead of the secret).
 */
export function maskSecret(secret: string, options: { tailOnly?: boolean } = {}): string {
  // A fixed run of stars: the mask does not reveal the secret's length.
  if (options.tailOnly) return `********${secret.slice(-4)}`;
  return `********${secret.length > 4 ? secret.slice(-4) : ''}`;
}
