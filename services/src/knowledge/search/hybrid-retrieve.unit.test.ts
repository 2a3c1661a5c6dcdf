import { describe, expect, it } from 'vitest';
import { fuseRankings, RRF_K } from './hybrid-retrieve.js';

const id = (item: string) => item;

describe('reciprocal rank fusion', () => {
  it('scores an item by the sum of 1/(k + rank) over the rankings it is in', () => {
    const fused = fuseRankings(
      [
        ['a', 'b', 'c'],
        ['c', 'a'],
      ],
      id,
    );
    expect(fused.map((entry) => entry.item)).toEqual(['a', 'c', 'b']);
    expect(fused[0]!.score).toBeCloseTo(1 / (RRF_K + 1) + 1 / (RRF_K + 2));
    expect(fused[1]!.score).toBeCloseTo(1 / (RRF_K + 3) + 1 / (RRF_K + 1));
    expect(fused[2]!.score).toBeCloseTo(1 / (RRF_K + 2));
  });

  it('lifts what both rankings agree on above the first place of one of them', () => {
    expect(
      fuseRankings(
        [
          ['x', 'both'],
          ['y', 'both'],
        ],
        id,
      )[0]!.item,
    ).toBe('both');
  });

  it("keeps the first ranking's order on ties, and one ranking unchanged", () => {
    expect(
      fuseRankings(
        [
          ['a', 'b'],
          ['b', 'a'],
        ],
        id,
      ).map((entry) => entry.item),
    ).toEqual(['a', 'b']);
    expect(fuseRankings([['q', 'r', 's'], []], id).map((entry) => entry.item)).toEqual(['q', 'r', 's']);
    expect(fuseRankings([], id)).toEqual([]);
  });
});
