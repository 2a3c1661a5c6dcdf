import type { BillingPeriod, Currency, PlanTier } from '@kesher/contracts';
import type { Language } from '@/lib/language';

/** The billing pages' own rules: money, dates, storage, the pricing choice and where a redirect may go. */

const locale = (language: Language) => (language === 'he' ? 'he-IL' : 'en-US');

/**
 * An amount in minor units, in the page's language: ₪ for ILS, else $ (spec part 2 §2). Two decimals on
 * the payment page and in the history; `whole` drops them when there are none (the plan cards).
 */
export function formatMoney(
  minor: number,
  currency: Currency | string,
  language: Language,
  { whole = false } = {},
): string {
  const units = minor / 100;
  const digits = whole && Number.isInteger(units) ? 0 : 2;
  return new Intl.NumberFormat(locale(language), {
    style: 'currency',
    currency: currency === 'ILS' ? 'ILS' : 'USD',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(units);
}

export function formatDate(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'long' }).format(new Date(iso));
}

export function formatNumber(value: number, language: Language): string {
  return new Intl.NumberFormat(locale(language), { maximumFractionDigits: 1 }).format(value);
}

/** Storage limits are stored in MB; 1,024 MB and over read as GB (the comparison table's 5 GB, 50 GB). */
export function formatStorage(mb: number, language: Language, units: { mb: string; gb: string }): string {
  return mb >= 1024 ? `${formatNumber(mb / 1024, language)} ${units.gb}` : `${formatNumber(mb, language)} ${units.mb}`;
}

/** Expiry years on the card form: this year and the next nine, two digits (spec part 2 §9). */
export function expiryYears(now: Date): string[] {
  const first = now.getFullYear();
  return Array.from({ length: 10 }, (_, i) => String((first + i) % 100).padStart(2, '0'));
}

export const expiryMonths = (): string[] => Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));

export type PaidTierChoice = 'pro' | 'enterprise';
export interface PricingChoice {
  plan: PaidTierChoice | null;
  period: BillingPeriod | null;
}

/**
 * The plan a visitor chose before signing in travels in the pricing address (`?plan=pro&billing=yearly`,
 * inside login's `redirect`), so /pricing can show that choice again once they are back.
 */
export function readPricingChoice(params: URLSearchParams): PricingChoice {
  const plan = params.get('plan');
  const period = params.get('billing');
  return {
    plan: plan === 'pro' || plan === 'enterprise' ? plan : null,
    period: period === 'monthly' || period === 'yearly' ? period : null,
  };
}

export const tierChoice = (tier: PlanTier): PaidTierChoice | null =>
  tier === 'PRO' ? 'pro' : tier === 'ENTERPRISE' ? 'enterprise' : null;

export type Destination = { kind: 'internal'; path: string } | { kind: 'external'; url: string };

/**
 * Where a redirect handed to the page may go. Addresses that come from the page's own query (success and
 * cancel addresses) must stay on this site — a crafted link must not send a payer elsewhere; the
 * checkout address from our server may also be an https page (Stripe Checkout).
 */
export function destination(
  target: string | null | undefined,
  origin: string,
  { allowExternal = false } = {},
): Destination | null {
  if (!target) return null;
  if (target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\'))
    return { kind: 'internal', path: target };
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null;
  }
  if (url.origin === origin) return { kind: 'internal', path: `${url.pathname}${url.search}${url.hash}` };
  if (allowExternal && url.protocol === 'https:') return { kind: 'external', url: url.href };
  return null;
}
