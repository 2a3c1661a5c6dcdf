import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A receipt opens from a link on the billing page, where the browser sends no bearer token; so the link
 * carries its own proof: an HMAC of the payment and its owner under a key derived from the auth secret.
 * Only the owner is shown the link (payment history is theirs alone); a guessed or another payment's
 * signature opens nothing.
 */
export function createReceiptLinks(deps: { secret: Uint8Array }) {
  const key = createHmac('sha256', deps.secret).update('kesher receipt links v1').digest();
  const sign = (paymentId: string, ownerId: string) =>
    createHmac('sha256', key).update(`${paymentId}\n${ownerId}`).digest('base64url');
  return {
    url: (paymentId: string, ownerId: string) =>
      `/api/v1/subscriptions/receipts/${encodeURIComponent(paymentId)}.pdf?sig=${sign(paymentId, ownerId)}`,
    verify(paymentId: string, ownerId: string, signature: string): boolean {
      const expected = Buffer.from(sign(paymentId, ownerId));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type ReceiptLinks = ReturnType<typeof createReceiptLinks>;
