import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Meta signs every webhook delivery with the app secret: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256
 * of the raw body>`. The raw bytes are what is signed, so the check runs before any JSON parsing.
 */
export function metaSignatureValid(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const metaSignature = (rawBody: Buffer | string, appSecret: string) =>
  `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;

/** The subscription handshake: Meta GETs `hub.mode=subscribe&hub.verify_token=…&hub.challenge=…` and wants the challenge back. */
export function metaHandshake(query: Record<string, unknown>, verifyToken: string): string | undefined {
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string') return undefined;
  const a = Buffer.from(token);
  const b = Buffer.from(verifyToken);
  return a.length === b.length && timingSafeEqual(a, b) ? challenge : undefined;
}
