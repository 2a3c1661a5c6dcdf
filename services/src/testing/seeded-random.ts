/**
 * A repeatable stream of numbers in [0, 1) for randomised tests: a failure names its seed, and the same
 * seed replays it. (A linear congruential generator: plenty for choosing steps, not for anything secret.)
 */
export function seededRandom(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}
