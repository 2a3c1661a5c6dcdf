import { describe, expect, it } from 'vitest';
import { gaugeBand, satisfactionBand, seriesStats, truncateUrl, usageRows } from './analytics-rules';

describe('the analytics page rules', () => {
  it('bands the gauge under 200, 500 and 1,000 ms', () => {
    expect([0, 199, 200, 499, 500, 999, 1000, 6000].map(gaugeBand)).toEqual(['excellent', 'excellent', 'good', 'good', 'fair', 'fair', 'slow', 'slow']);
  });

  it('calls 70 % satisfaction good and 50 % fair', () => {
    expect([100, 70, 69.9, 50, 49.9, 0].map(satisfactionBand)).toEqual(['good', 'good', 'fair', 'fair', 'poor', 'poor']);
  });

  it('truncates URLs at 60 characters', () => {
    const long = `https://shop.example.com/${'a'.repeat(80)}`;
    expect(truncateUrl(long)).toHaveLength(61);
    expect(truncateUrl(long).endsWith('…')).toBe(true);
    expect(truncateUrl('https://shop.example.com/pricing')).toBe('https://shop.example.com/pricing');
  });

  it('gives min, max and avg over the days with a value', () => {
    expect(seriesStats([null, 100, 300, null])).toEqual({ min: 100, max: 300, avg: 200 });
    expect(seriesStats([null])).toBeNull();
  });

  it('colours the usage rows at 50, 75 and 90 % of the monthly figures', () => {
    const [queries, responses, tokens, storage] = usageRows(15_000, 190);
    expect(queries).toMatchObject({ used: 15_000, limit: 20_000, state: 'warning' });
    expect(responses).toMatchObject({ used: 12_750, limit: 17_000, state: 'warning' });
    expect(tokens).toMatchObject({ used: 2_250_000, limit: 1_000_000, state: 'reached', percent: 100 });
    expect(storage).toMatchObject({ used: 190, limit: 200, state: 'critical' });
    expect(usageRows(10_000, 0)[0]!.state).toBe('notice');
    expect(usageRows(0, 0)[0]!.state).toBe('ok');
  });
});
