import { describe, expect, it } from 'vitest';
import { gaugeBand, satisfactionBand, seriesStats, truncateUrl, usageRows } from './analytics-rules';

describe('the analytics page rules', () => {
  it('bands the gauge under 200, 500 and 1,000 ms', () => {
    expect([0, 199, 200, 499, 500, 999, 1000, 6000].map(gaugeBand)).toEqual([
      'excellent',
      'excellent',
      'good',
      'good',
      'fair',
      'fair',
      'slow',
      'slow',
    ]);
  });

  it('calls 70 % satisfaction good and 50 % fair', () => {
    expect([100, 70, 69.9, 50, 49.9, 0].map(satisfactionBand)).toEqual([
      'good',
      'good',
      'fair',
      'fair',
      'poor',
      'poor',
    ]);
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

  it("measures the usage rows against the owner's plan and colours them at 50, 75 and 90 %", () => {
    const pro = { monthlyMessages: 20_000, storageMb: 200 };
    const [queries, responses, tokens, storage] = usageRows(15_000, 190, pro);
    expect(queries).toMatchObject({ used: 15_000, limit: 20_000, state: 'warning' });
    expect(responses).toMatchObject({ used: 12_750, limit: 17_000, state: 'warning' });
    expect(tokens).toMatchObject({ used: 2_250_000, limit: 3_000_000, state: 'warning' });
    expect(storage).toMatchObject({ used: 190, limit: 200, state: 'critical' });
    expect(usageRows(10_000, 0, pro)[0]!.state).toBe('notice');
    expect(usageRows(0, 0, pro)[0]!.state).toBe('ok');
    // A free owner refused at 100 messages sees 100 of 100 (not "100 of 20,000") and a full bar.
    const [freeQueries, , , freeStorage] = usageRows(100, 12, { monthlyMessages: 100, storageMb: 100 });
    expect(freeQueries).toMatchObject({ used: 100, limit: 100, percent: 100, state: 'reached' });
    expect(freeStorage).toMatchObject({ used: 12, limit: 100, state: 'ok' });
  });
});
