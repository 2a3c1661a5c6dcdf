import { describe, expect, it } from 'vitest';
import { destination, expiryMonths, expiryYears, formatMoney, formatStorage, readPricingChoice } from './billing-rules';

describe('money in minor units, in the page language', () => {
  it('shows ₪ for ILS and $ otherwise, with two decimals', () => {
    expect(formatMoney(19_900, 'ILS', 'en')).toBe('₪199.00');
    expect(formatMoney(5, 'USD', 'en')).toBe('$0.05');
    expect(formatMoney(123_456, 'EUR', 'en')).toBe('$1,234.56');
    // Hebrew puts the sign after the number; the figure and the sign are what count.
    const he = formatMoney(19_900, 'ILS', 'he');
    expect(he).toContain('199.00');
    expect(he).toContain('₪');
  });

  it('drops the decimals of a whole amount only when asked (plan cards)', () => {
    expect(formatMoney(199_000, 'ILS', 'en', { whole: true })).toBe('₪1,990');
    expect(formatMoney(19_950, 'ILS', 'en', { whole: true })).toBe('₪199.50');
  });

  it('reads storage as MB below 1,024 and GB from there', () => {
    const units = { mb: 'MB', gb: 'GB' };
    expect(formatStorage(100, 'en', units)).toBe('100 MB');
    expect(formatStorage(5 * 1024, 'en', units)).toBe('5 GB');
    expect(formatStorage(50 * 1024, 'en', units)).toBe('50 GB');
  });
});

describe('the card form selects', () => {
  it('offers months 01–12 and this year plus the next nine as two digits', () => {
    expect(expiryMonths()).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);
    expect(expiryYears(new Date('2026-11-23T12:00:00Z'))).toEqual([
      '26',
      '27',
      '28',
      '29',
      '30',
      '31',
      '32',
      '33',
      '34',
      '35',
    ]);
    expect(expiryYears(new Date('2095-06-01T12:00:00Z'))).toEqual([
      '95',
      '96',
      '97',
      '98',
      '99',
      '00',
      '01',
      '02',
      '03',
      '04',
    ]);
  });
});

describe('the pricing choice in the address', () => {
  it('reads a paid plan and a billing period, and ignores anything else', () => {
    expect(readPricingChoice(new URLSearchParams('plan=pro&billing=yearly'))).toEqual({
      plan: 'pro',
      period: 'yearly',
    });
    expect(readPricingChoice(new URLSearchParams('plan=enterprise'))).toEqual({ plan: 'enterprise', period: null });
    expect(readPricingChoice(new URLSearchParams('plan=free&billing=weekly'))).toEqual({ plan: null, period: null });
  });
});

describe('where a redirect may go', () => {
  const origin = 'https://kesher.example';
  it('keeps this site’s paths and addresses inside the app', () => {
    expect(destination('/billing?checkout=success', origin)).toEqual({
      kind: 'internal',
      path: '/billing?checkout=success',
    });
    expect(destination('https://kesher.example/pricing?plan=pro', origin)).toEqual({
      kind: 'internal',
      path: '/pricing?plan=pro',
    });
  });

  it('refuses other sites, protocol-relative and script addresses from the page’s query', () => {
    for (const target of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      'not a url',
      '',
      null,
    ]) {
      expect(destination(target, origin)).toBeNull();
    }
  });

  it('lets the server’s checkout address be another https site (Stripe Checkout), never plain http', () => {
    expect(destination('https://checkout.stripe.com/c/pay/cs_1', origin, { allowExternal: true })).toEqual({
      kind: 'external',
      url: 'https://checkout.stripe.com/c/pay/cs_1',
    });
    expect(destination('http://checkout.example/c', origin, { allowExternal: true })).toBeNull();
    expect(destination('javascript:alert(1)', origin, { allowExternal: true })).toBeNull();
  });
});
