import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { metaHandshake, metaSignatureValid } from './meta-signature.js';

describe("Meta's webhook checks", () => {
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
  const signed = `sha256=${createHmac('sha256', 'app-secret').update(body).digest('hex')}`;

  it('accepts the HMAC-SHA256 of the raw body with the app secret, and nothing else', () => {
    expect(metaSignatureValid(body, signed, 'app-secret')).toBe(true);
    expect(metaSignatureValid(body, signed, 'other-secret')).toBe(false);
    expect(metaSignatureValid(Buffer.from(`${body.toString()} `), signed, 'app-secret')).toBe(false);
    expect(metaSignatureValid(body, signed.replace('sha256=', 'sha1='), 'app-secret')).toBe(false);
    expect(metaSignatureValid(body, 'sha256=abc', 'app-secret')).toBe(false);
    expect(metaSignatureValid(body, undefined, 'app-secret')).toBe(false);
  });

  it('answers the subscription handshake with the challenge only for the right verify token', () => {
    expect(metaHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'tok', 'hub.challenge': '42' }, 'tok')).toBe(
      '42',
    );
    expect(
      metaHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '42' }, 'tok'),
    ).toBeUndefined();
    expect(
      metaHandshake({ 'hub.mode': 'unsubscribe', 'hub.verify_token': 'tok', 'hub.challenge': '42' }, 'tok'),
    ).toBeUndefined();
    expect(metaHandshake({ 'hub.verify_token': 'tok' }, 'tok')).toBeUndefined();
  });
});
