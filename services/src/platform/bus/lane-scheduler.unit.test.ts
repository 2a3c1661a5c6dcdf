import { describe, expect, it } from 'vitest';
import { createLaneScheduler, type Schedulable } from './lane-scheduler.js';

interface Item extends Schedulable {
  name: string;
}

/** A scheduler whose items run until the test finishes them, so what runs when is the test's to see. */
function harness(concurrency: number) {
  const running = new Map<string, () => void>();
  const started: string[] = [];
  const scheduler = createLaneScheduler<Item>({
    concurrency,
    run: (item) =>
      new Promise<void>((resolve) => {
        started.push(item.name);
        running.set(item.name, resolve);
      }),
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    scheduler,
    started,
    running: () => [...running.keys()].sort(),
    async finish(name: string) {
      running.get(name)!();
      running.delete(name);
      await settle();
    },
  };
}

const item = (name: string, key: string, lane = key, alone = false): Item => ({ name, key, lane, alone });

describe('the lane scheduler', () => {
  it('runs up to `concurrency` items, never two of one key, in order per key', async () => {
    const h = harness(2);
    h.scheduler.add([item('a1', 'a'), item('a2', 'a'), item('b1', 'b'), item('c1', 'c')]);
    expect(h.running()).toEqual(['a1', 'b1']);
    await h.finish('a1');
    // The earliest runnable first: a2 (its key is free again) before c1.
    expect(h.running()).toEqual(['a2', 'b1']);
    await h.finish('b1');
    expect(h.running()).toEqual(['a2', 'c1']);
  });

  it('gives a lane one slot, so a long lane does not keep the others waiting', async () => {
    const h = harness(2);
    h.scheduler.add([
      item('a1', 'f1', 'owner-a'),
      item('a2', 'f2', 'owner-a'),
      item('a3', 'f3', 'owner-a'),
      item('b1', 'f4', 'owner-b'),
    ]);
    expect(h.running()).toEqual(['a1', 'b1']);
    await h.finish('b1');
    // A free slot, but owner A's next file waits for its first.
    expect(h.running()).toEqual(['a1']);
    await h.finish('a1');
    expect(h.running()).toEqual(['a2']);
  });

  it('keeps a key in order even when its messages sit in different lanes', async () => {
    const h = harness(3);
    h.scheduler.add([item('x1', 'k', 'lane-1'), item('busy', 'other', 'lane-2'), item('x2', 'k', 'lane-2')]);
    expect(h.running()).toEqual(['busy', 'x1']);
    await h.finish('x1');
    // x2's key is free now, but its lane is still busy.
    expect(h.running()).toEqual(['busy']);
    await h.finish('busy');
    expect(h.running()).toEqual(['x2']);
  });

  it('runs an item marked `alone` only once nothing else runs, and nothing beside or after it', async () => {
    const h = harness(3);
    h.scheduler.add([item('a', 'a')]);
    h.scheduler.add([item('suspect', 's', 's', true), item('b', 'b'), item('c', 'c')]);
    expect(h.running()).toEqual(['a']);
    await h.finish('a');
    expect(h.running()).toEqual(['suspect']);
    await h.finish('suspect');
    expect(h.running()).toEqual(['b', 'c']);
  });

  it('forgets waiting items it is told to drop, and says when nothing runs', async () => {
    const h = harness(1);
    h.scheduler.add([item('a', 'a'), item('b', 'b'), item('c', 'c')]);
    h.scheduler.drop((i) => i.name === 'b');
    let idle = false;
    void h.scheduler.idle().then(() => (idle = true));
    await h.finish('a');
    expect(h.running()).toEqual(['c']);
    expect(idle).toBe(false);
    await h.finish('c');
    expect(idle).toBe(true);
    expect(h.started).toEqual(['a', 'c']);
  });
});
