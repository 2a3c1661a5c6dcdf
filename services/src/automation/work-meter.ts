/**
 * Slices of a long computation an owner can trigger (indexing their workflows, the overlap report), so
 * that it shares the event loop with every other tenant's requests: the computation counts its work in
 * units and awaits `pause()` at safe points (after each phrase); once a slice's worth of units has been
 * done since the last pause — or SLICE_MS have passed, as a busy machine makes the same units slower —
 * the pause lets every waiting callback and I/O run (setImmediate) before going on.
 *
 * Units are what the tests count: one unit is a posting visited by a match (a few array reads).
 */
export interface WorkMeter {
  add(units: number): void;
  /** Yields to the event loop when a slice has been done since the last pause. */
  pause(): Promise<void>;
  /** Units counted so far. */
  readonly total: number;
  /** Times it yielded. */
  readonly pauses: number;
}

/** Indexing one word of a phrase (its Hebrew/English forms, its postings), in postings visited. */
export const WORD_UNITS = 20;
/** What a match costs besides its postings (reading the phrase's words, ranking the workflows). */
export const PHRASE_UNITS = 300;
/**
 * A slice: about 2 ms of work on an idle core, 15 ms on this 2-core machine shared by a dozen processes
 * (`make bench-automation` records the longest stall), well below the 50 ms the loop may be held.
 */
export const SLICE_UNITS = 50_000;
/** …or this long, whichever comes first: on a machine shared by a dozen processes 50,000 units took up to 400 ms. */
export const SLICE_MS = 8;

export function createWorkMeter(options: { slice?: number; sliceMs?: number } = {}): WorkMeter {
  const slice = options.slice ?? SLICE_UNITS;
  const sliceMs = options.sliceMs ?? SLICE_MS;
  let total = 0;
  let sinceLastPause = 0;
  let pauses = 0;
  let resumedAt = performance.now();
  return {
    add(units) {
      total += units;
      sinceLastPause += units;
    },
    async pause() {
      if (sinceLastPause < slice && performance.now() - resumedAt < sliceMs) return;
      sinceLastPause = 0;
      pauses++;
      await new Promise<void>((resolve) => setImmediate(resolve));
      resumedAt = performance.now();
    },
    get total() {
      return total;
    },
    get pauses() {
      return pauses;
    },
  };
}
