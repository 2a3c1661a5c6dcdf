import { describe, expect, it } from 'vitest';
import { alignedDelay } from './clock-grid.js';

describe('alignedDelay', () => {
  it('puts readers that defer at different moments on the same grid', () => {
    expect(alignedDelay(1000, 10_250)).toBe(750);
    expect(alignedDelay(1000, 10_900)).toBe(100);
    expect(10_250 + alignedDelay(1000, 10_250)).toBe(10_900 + alignedDelay(1000, 10_900));
    expect(alignedDelay(1000, 11_000)).toBe(1000);
    expect(alignedDelay(0, 123)).toBe(0);
  });
});
