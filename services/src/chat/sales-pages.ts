import type { PageCategory } from '@kesher/contracts';
import { normalizeForSearch, searchTokens, termVariants } from '@kesher/contracts/rules/search-terms';
import type { RetrievedPassage } from '../knowledge/index.js';

/**
 * Words that show a visitor wants to buy, in English and Hebrew (checked on the normalised question, so
 * Hebrew prefixes such as ל־/ו־ in "לקנות"/"וכמה" still match as substrings).
 */
const BUYING_INTENT = [
  /\b(buy|buying|purchase|order|ordering|price|prices|pricing|cost|costs|subscribe|subscription|checkout|plans?|how much|sign up|book|booking)\b/,
  /(לקנות|לרכוש|קני|רכיש|מחיר|עולה|עלות|להזמין|הזמנ|מנוי|להירשם|תשלום)/,
];

export const showsBuyingIntent = (question: string) =>
  BUYING_INTENT.some((pattern) => pattern.test(normalizeForSearch(question)));

/** A page of the assistant's site where one buys, as the crawler classified it (Sales Mode). */
export interface SalesPage {
  url: string;
  title: string | null;
  category: PageCategory | null;
  relevanceScore: number | null;
}

/**
 * What kind of sales page a buying question asks for, most wanted first: a question about prices wants
 * the price list, one about an appointment the booking page, one about buying the product or checkout.
 */
const WANTS: ReadonlyArray<{ pattern: RegExp; categories: readonly PageCategory[] }> = [
  {
    pattern:
      /\b(price|prices|pricing|cost|costs|how much|plans?|subscription|subscribe|fee|fees|tariff)\b|(מחיר|עולה|עלות|מנוי|תעריף)/,
    categories: ['pricing', 'product', 'checkout'],
  },
  {
    pattern:
      /\b(book|booking|appointment|reserve|reservation|schedule|contact|call me|meeting)\b|(תור|פגישה|לקבוע|צור קשר|ליצור קשר|שיחה)/,
    categories: ['booking'],
  },
  {
    pattern:
      /\b(buy|buying|purchase|order|ordering|checkout|cart|shop|sign up)\b|(לקנות|לרכוש|קני|רכיש|להזמין|הזמנ|להירשם|תשלום)/,
    categories: ['checkout', 'product', 'pricing'],
  },
];

/** A word and the forms it may take (Hebrew prefixes, English endings), as the knowledge search matches them. */
const formsOf = (text: string) =>
  new Set(searchTokens(text).flatMap((token) => termVariants(token).map((variant) => variant.term)));

/** Addresses and titles of pages where one buys: pricing, shop, checkout, plans, orders. */
const SALES_PAGE =
  /(pric|buy|shop|store|checkout|cart|order|plans|product|subscri|purchase|booking|מחיר|חנות|רכיש|הזמנ|מוצר)/i;

/**
 * The page a buying visitor is sent to. From the assistant's crawled sales pages when it has any: the
 * kind of page the question asks for first, then the words it shares with the page's title and address,
 * then whether the answer's own passages came from that page, then the page's relevance. Without crawled
 * sales pages, the best-scoring retrieved passage whose address looks like a page to buy on. Either way
 * only an address from the assistant's own knowledge qualifies: a referral never points anywhere the
 * owner did not give it.
 */
export function bestSalesPage(
  question: string,
  passages: readonly RetrievedPassage[],
  salesPages: readonly SalesPage[] = [],
): string | null {
  const pages = salesPages.filter((page) => /^https?:\/\//.test(page.url));
  if (pages.length > 0) {
    const normalized = normalizeForSearch(question);
    const wanted = WANTS.filter((want) => want.pattern.test(normalized)).flatMap((want) => want.categories);
    const asked = formsOf(question);
    const quoted = new Map<string, number>();
    passages.forEach(
      (passage, rank) => passage.sourceUrl && !quoted.has(passage.sourceUrl) && quoted.set(passage.sourceUrl, rank),
    );
    const scored = pages.map((page, order) => {
      const place = page.category ? wanted.indexOf(page.category) : -1;
      let path = page.url;
      try {
        path = decodeURIComponent(new URL(page.url).pathname);
      } catch {
        // Keep the address as written.
      }
      const shared = [...formsOf(`${page.title ?? ''} ${path.replace(/[/_.-]+/g, ' ')}`)].filter((form) =>
        asked.has(form),
      ).length;
      const rank = quoted.get(page.url);
      const score =
        (place >= 0 ? 4 - place : 0) +
        Math.min(3, shared) +
        (rank === undefined ? 0 : 2 / (1 + rank)) +
        (page.relevanceScore ?? 0) * 0.5;
      return { page, score, order };
    });
    scored.sort((a, b) => b.score - a.score || a.order - b.order);
    return scored[0]!.page.url;
  }
  const candidates = passages.filter(
    (p) =>
      p.sourceUrl &&
      /^https?:\/\//.test(p.sourceUrl) &&
      SALES_PAGE.test(`${p.sourceUrl} ${p.filename} ${p.section ?? ''}`),
  );
  if (candidates.length === 0) return null;
  return [...candidates].sort((a, b) => b.score - a.score)[0]!.sourceUrl;
}
