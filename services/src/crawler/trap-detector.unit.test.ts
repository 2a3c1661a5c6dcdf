import { describe, expect, it } from 'vitest';
import { createTrapDetector } from './trap-detector.js';

const now = new Date('2026-06-15T00:00:00Z');

describe('spider traps', () => {
  it('stops a calendar that runs into the future or the distant past', () => {
    const detector = createTrapDetector({ now });
    expect(detector.check('https://example.test/events/calendar/2026/07')).toBeNull();
    expect(detector.check('https://example.test/events/calendar/2031/07')).toMatchObject({
      kind: 'calendar',
      reason: 'dated 2031, more than 2 years ahead',
    });
    expect(detector.check('https://example.test/calendar?month=1987-02')).toMatchObject({ kind: 'calendar' });
    expect(detector.check('https://example.test/blog/2015/03/why-we-bake-at-night')).toBeNull();
  });

  it('stops a calendar that steps month by month within plausible years', () => {
    const detector = createTrapDetector({ now, limits: { maxDatedPagesPerShape: 24 } });
    const verdicts = [];
    for (let year = 2025; year <= 2028; year++)
      for (let month = 1; month <= 12; month++)
        verdicts.push(detector.check(`https://example.test/events/${year}-${String(month).padStart(2, '0')}`));
    expect(verdicts.filter((verdict) => verdict === null)).toHaveLength(24);
    expect(verdicts.at(-1)).toMatchObject({ kind: 'calendar' });
  });

  it('stops query-string explosions and faceted filters', () => {
    const detector = createTrapDetector({ now, limits: { maxQueryVariantsPerPath: 5 } });
    const results = Array.from({ length: 8 }, (_unused, i) => detector.check(`https://example.test/shop?sort=${i}`));
    expect(results.slice(0, 5).every((verdict) => verdict === null)).toBe(true);
    expect(results[5]).toMatchObject({ kind: 'query-explosion', reason: 'more than 5 query-string variants of /shop' });
    expect(detector.check('https://example.test/shop?sort=1')).toBeNull(); // already counted
    expect(detector.check('https://example.test/other?a=1&b=2&c=3&d=4&e=5&f=6&g=7')).toMatchObject({
      kind: 'query-explosion',
      reason: '7 query parameters',
    });
  });

  it('stops paths that repeat themselves, run too deep or too long', () => {
    const detector = createTrapDetector({ now });
    expect(detector.check('https://example.test/a/b/a/b/page')).toMatchObject({
      kind: 'repeated-segments',
      reason: 'the path repeats "a/b"',
    });
    expect(detector.check('https://example.test/en/x/en/y/en/z')).toMatchObject({
      kind: 'repeated-segments',
      reason: 'the segment "en" appears 3 times',
    });
    expect(detector.check('https://example.test/2024/01/01/post')).toBeNull();
    expect(
      detector.check(
        `https://example.test/${'d/'.repeat(1)}${Array.from({ length: 13 }, (_unused, i) => `s${i}`).join('/')}`,
      ),
    ).toMatchObject({ kind: 'too-deep' });
    expect(detector.check(`https://example.test/${'x'.repeat(1100)}`)).toMatchObject({ kind: 'too-long' });
    expect(detector.check('https://example.test/products/mug')).toBeNull();
  });
});
