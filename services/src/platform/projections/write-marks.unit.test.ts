import type { AllPosition } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { createWriteMarks } from './write-marks.js';

const at = (n: number): AllPosition => ({ commit: BigInt(n), prepare: BigInt(n) });

/** Read models whose position the test moves by hand; waits resolve when it passes theirs. */
function readModels() {
  let position = at(0);
  const waits: { position: AllPosition; types: readonly string[] | undefined; resolve: (ok: boolean) => void }[] = [];
  return {
    waits,
    moveTo(n: number) {
      position = at(n);
      for (const wait of waits.splice(0)) {
        if (wait.position.commit <= position.commit) wait.resolve(true);
        else waits.push(wait);
      }
    },
    awaitReadModels: (target: AllPosition, types?: readonly string[]) =>
      target.commit <= position.commit ? Promise.resolve(true) : new Promise<boolean>((resolve) => waits.push({ position: target, types, resolve })),
  };
}

describe('write marks', () => {
  it('lets a read of an unwritten key through at once', async () => {
    const models = readModels();
    const marks = createWriteMarks({ awaitReadModels: models.awaitReadModels });
    await marks.settle('thread_a');
    expect(models.waits).toHaveLength(0);
  });

  it('holds a read until the read models pass the newest write, waiting for every type written since the last read', async () => {
    const models = readModels();
    const marks = createWriteMarks({ awaitReadModels: models.awaitReadModels });
    marks.note('thread_a', at(5), ['MessagePosted']);
    marks.note('thread_a', at(7), ['RunRequested']);
    let settled = false;
    const reading = marks.settle('thread_a').then(() => (settled = true));
    await Promise.resolve();
    expect(models.waits[0]!.position).toEqual(at(7));
    expect([...models.waits[0]!.types!].sort()).toEqual(['MessagePosted', 'RunRequested']);
    models.moveTo(6);
    await Promise.resolve();
    expect(settled).toBe(false);
    models.moveTo(7);
    await reading;
    // Settled: the next read does not wait again.
    await marks.settle('thread_a');
    expect(models.waits).toHaveLength(0);
  });

  it('keeps other keys apart and forgets the oldest beyond its bound', async () => {
    const models = readModels();
    const marks = createWriteMarks({ awaitReadModels: models.awaitReadModels, max: 2 });
    marks.note('a', at(3), ['MessagePosted']);
    marks.note('b', at(4), ['MessagePosted']);
    marks.note('c', at(5), ['MessagePosted']);
    await marks.settle('a');
    expect(models.waits).toHaveLength(0);
    void marks.settle('b');
    await Promise.resolve();
    expect(models.waits.map((w) => w.position)).toEqual([at(4)]);
  });
});
