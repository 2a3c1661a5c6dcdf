import { normalizeForSearch } from '@kesher/contracts/rules/search-terms';
import type { RetrievedPassage } from '../knowledge/search/retrieve.js';

/**
 * Words that show a visitor wants to buy, in English and Hebrew (checked on the normalised question, so
 * Hebrew prefixes such as ל־/ו־ in "לקנות"/"וכמה" still match as substrings).
 */
const BUYING_INTENT = [
  /\b(buy|buying|purchase|order|ordering|price|prices|pricing|cost|costs|subscribe|subscription|checkout|plans?|how much|sign up|book|booking)\b/,
  /(לקנות|לרכוש|קני|רכיש|מחיר|עולה|עלות|להזמין|הזמנ|מנוי|להירשם|תשלום)/,
];

export const showsBuyingIntent = (question: string) => BUYING_INTENT.some((pattern) => pattern.test(normalizeForSearch(question)));

/** Addresses and titles of pages where one buys: pricing, shop, checkout, plans, orders. */
const SALES_PAGE = /(pric|buy|shop|store|checkout|cart|order|plans|product|subscri|purchase|booking|מחיר|חנות|רכיש|הזמנ|מוצר)/i;

/**
 * The most relevant sales page among the retrieved passages: the best-scoring passage that comes from an
 * address that looks like a page to buy on. Only addresses from the assistant's own knowledge qualify, so
 * a referral never points anywhere the owner did not give it.
 */
export function bestSalesPage(passages: readonly RetrievedPassage[]): string | null {
  const candidates = passages.filter((p) => p.sourceUrl && /^https?:\/\//.test(p.sourceUrl) && SALES_PAGE.test(`${p.sourceUrl} ${p.filename} ${p.section ?? ''}`));
  if (candidates.length === 0) return null;
  return [...candidates].sort((a, b) => b.score - a.score)[0]!.sourceUrl;
}
