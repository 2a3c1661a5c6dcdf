import { billingMessages, TEST_CARDS } from '@kesher/contracts';

/** The test page's texts (contracts errors.catalogue.ts billingMessages, where each has its code). */
export const cardMessages = {
  declined: billingMessages.declined,
  unknownCard: billingMessages.unknownCard,
  expired: billingMessages.expired,
  paid: billingMessages.paid,
  alreadyPaid: billingMessages.alreadyPaid,
} as const;

export type CardOutcome = { paid: true; cardLast4: string } | { paid: false; reason: string };

/** A card is good through the last day of its MM/YY month (UTC). `expiry` is already MM/YY (the form's schema). */
export function cardExpired(expiry: string, now: Date): boolean {
  const [month, year] = expiry.split('/').map(Number) as [number, number];
  return Date.UTC(2000 + year, month, 1) <= now.getTime();
}

/**
 * A number that is neither test card is a typing mistake on the test page, not a payment the bank
 * refused: the form says so on the card number field (422) and nothing is recorded — before, it was
 * listed in the owner's payment history as a failed payment.
 */
export function unknownTestCard(number: string): boolean {
  return number !== TEST_CARDS.success && number !== TEST_CARDS.declined;
}

/**
 * What the test bank says about a valid, unexpired card: the success card pays, the declined card is
 * refused, any other number is refused with the hint (the route refuses those before, see
 * `unknownTestCard`). Malformed or expired cards never get here (422 naming the field).
 */
export function judgeTestCard(card: { number: string }): CardOutcome {
  if (card.number === TEST_CARDS.declined) return { paid: false, reason: cardMessages.declined };
  if (card.number !== TEST_CARDS.success) return { paid: false, reason: cardMessages.unknownCard };
  return { paid: true, cardLast4: card.number.slice(-4) };
}
