import { TEST_CARDS } from '@kesher/contracts';

export const cardMessages = {
  declined: 'Your card was declined. Please try a different card.',
  unknownCard: `This is a test page: use the test card ${TEST_CARDS.success} (or ${TEST_CARDS.declined} to see a decline).`,
  expired: 'The card has expired. Check the expiry date.',
  paid: 'Payment successful! Your subscription is active.',
  alreadyPaid: 'This checkout is already paid. Your subscription is active.',
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
