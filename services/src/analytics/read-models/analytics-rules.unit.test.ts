import { limitState } from '@kesher/contracts';
import { keywordsOf, mergeForms } from '@kesher/projections/analytics/keywords/keyword-extraction';
import {
  classifyReferral,
  referralTypeOfCategory,
} from '@kesher/projections/analytics/referred-urls/referral-classifier';
import {
  bucketBounds,
  bucketOf,
  decodeInto,
  emptyHistogram,
  encodeHistogram,
  HISTOGRAM_BUCKETS,
  mergeInto,
  quantile,
} from '@kesher/projections/analytics/shared/latency-histogram';
import { daysOf, lastDays } from '@kesher/projections/analytics/shared/owner-scope';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('referral types from addresses', () => {
  it.each([
    ['https://bakery.example.com/pricing', 'pricing'],
    ['https://bakery.example.com/he/מחירון', 'pricing'],
    ['https://shop.example.com/products/gift-card', 'sales'],
    ['https://example.com/cart?item=3', 'sales'],
    ['https://example.com/help/returns', 'support'],
    ['https://help.example.com/article/42', 'support'],
    ['https://example.com/docs/api/reference', 'documentation'],
    ['https://example.com/about-us', 'company'],
    ['https://example.com/אודות', 'company'],
    ['https://example.com/blog/why-sourdough', 'content'],
    ['https://example.com/', 'content'],
    ['not a url', 'content'],
    // The first rule wins: a pricing page under support is about pricing.
    ['https://example.com/support/pricing-questions', 'pricing'],
  ])('%s is %s', (url, type) => expect(classifyReferral(url)).toBe(type));

  it('maps every crawler page category to a referral type', () => {
    expect(referralTypeOfCategory).toMatchObject({
      product: 'sales',
      checkout: 'sales',
      booking: 'sales',
      pricing: 'pricing',
      content: 'content',
    });
  });
});

describe('latency histogram', () => {
  it('puts every duration in a bucket whose bounds hold it, buckets 10 % apart', () => {
    fc.assert(
      fc.property(fc.double({ min: 10, max: 1_000_000, noNaN: true }), (ms) => {
        const [low, high] = bucketBounds(bucketOf(ms));
        return (low <= ms && ms < high * 1.0000001) || bucketOf(ms) === HISTOGRAM_BUCKETS - 1;
      }),
    );
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(9.99)).toBe(0);
    expect(bucketOf(10)).toBe(1);
    expect(bucketOf(1e12)).toBe(HISTOGRAM_BUCKETS - 1);
  });

  it('reads percentiles within 5 % of the exact ones, and merged days give the same as one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 20, max: 60_000 }), { minLength: 1, maxLength: 400 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (values, q) => {
          const whole = emptyHistogram();
          const [a, b] = [emptyHistogram(), emptyHistogram()];
          values.forEach((v, i) => {
            whole[bucketOf(v)]!++;
            (i % 2 ? a : b)[bucketOf(v)]!++;
          });
          const sorted = [...values].sort((x, y) => x - y);
          const exact = sorted[Math.max(0, Math.ceil(q * values.length) - 1)]!;
          const estimate = quantile(whole, q, { min: sorted[0]!, max: sorted.at(-1)! })!;
          expect(Math.abs(estimate - exact) / exact).toBeLessThanOrEqual(0.05);
          expect(mergeInto(mergeInto(emptyHistogram(), a), b)).toEqual(whole);
          // Stored sparse, read back whole.
          expect(decodeInto(decodeInto(emptyHistogram(), encodeHistogram(a)), encodeHistogram(b))).toEqual(whole);
        },
      ),
    );
    expect(quantile(emptyHistogram(), 0.5)).toBeNull();
    expect(encodeHistogram(emptyHistogram())).toBe('');
    expect(decodeInto(emptyHistogram(), '3:2,nonsense,999:1,5:x').slice(0, 6)).toEqual([0, 0, 0, 2, 0, 0]);
  });
});

describe('keywords', () => {
  it('keeps the words worth counting, once per message, in Hebrew and English', () => {
    expect(keywordsOf('What are the PRICES? The price of bread, please: prices!').map((k) => [k.key, k.label])).toEqual(
      [
        ['pric', 'prices'],
        ['bread', 'bread'],
      ],
    );
    expect(keywordsOf('האם יש לכם משלוחים לאילת? ומה עם המשלוח ב-2026?').map((k) => k.label)).toEqual([
      'משלוחים',
      'לאילת',
      'המשלוח',
    ]);
    expect(keywordsOf('See it here:\n[REDIRECT: https://bakery.example.com/pricing]')).toEqual([
      { key: 'see', label: 'see' },
    ]);
    expect(keywordsOf('https://www.example.com 12345')).toEqual([{ key: 'exampl', label: 'example' }]);
  });

  it('merges a Hebrew form into its bare word when both were counted, and leaves lone forms alone', () => {
    const merged = mergeForms([
      { key: 'משלוח', label: 'משלוח', count: 3 },
      { key: 'המשלוח', label: 'המשלוח', count: 5 },
      { key: 'משלוחימ', label: 'משלוחים', count: 2 },
      { key: 'בית', label: 'בית', count: 4 },
      { key: 'price', label: 'price', count: 1 },
    ]);
    expect(merged.map((k) => [k.label, k.count, k.members.sort()])).toEqual([
      ['משלוח', 10, ['המשלוח', 'משלוח', 'משלוחימ'].sort()],
      ['בית', 4, ['בית']],
      ['price', 1, ['price']],
    ]);
  });
});

describe('ranges and bands', () => {
  it('counts calendar days (UTC) ending today', () => {
    expect(lastDays(new Date('2026-03-02T23:59:00Z'), 3)).toEqual({ from: '2026-02-28', to: '2026-03-02' });
    expect(daysOf({ from: '2026-02-28', to: '2026-03-02' })).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
    expect(daysOf(lastDays(new Date('2026-03-02T00:00:00Z'), 1))).toEqual(['2026-03-02']);
  });

  it("puts usage in the card's bands: 50, 75, 90 percent and the limit", () => {
    expect([0, 49, 50, 74, 75, 89, 90, 99, 100, 120].map((used) => limitState(used, 100))).toEqual([
      'ok',
      'ok',
      'notice',
      'notice',
      'warning',
      'warning',
      'critical',
      'critical',
      'reached',
      'reached',
    ]);
    expect(limitState(0, 0)).toBe('reached');
  });
});
