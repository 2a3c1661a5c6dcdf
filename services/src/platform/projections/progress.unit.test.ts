import { describe, expect, it } from 'vitest';
import { createProgressBoard } from './progress.js';

const at = (n: number) => ({ commit: BigInt(n), prepare: BigInt(n) });

describe('the progress board (the one way to wait for read models and the relay)', () => {
  it('wakes a wait once every named reader has reached the position', async () => {
    const board = createProgressBoard();
    const waiting = board.waitFor(['a', 'b'], at(5), 5_000);
    board.report('a', at(7));
    board.report('b', at(4));
    expect(board.waiting()).toBe(1);
    board.report('b', at(5));
    expect(await waiting).toBe(true);
    expect(board.waiting()).toBe(0);
  });

  it('a move is strictly past the position taken before; without one, anywhere counts', async () => {
    const board = createProgressBoard();
    board.report('a', at(3));
    const moved = board.waitForMove('a', at(3), 5_000);
    board.report('a', at(3));
    expect(board.waiting()).toBe(1);
    board.report('a', at(4));
    expect(await moved).toBe(true);
    expect(await board.waitForMove('a', undefined, 10)).toBe(true);
    expect(await board.waitForMove('unknown', undefined, 10)).toBe(false);
  });

  it('ends parked waits with false when closed, and fails new ones until opened', async () => {
    const board = createProgressBoard();
    const parked = board.waitFor(['a'], at(1), 60_000);
    board.close();
    expect(await parked).toBe(false);
    expect(await board.waitFor(['a'], at(1), 60_000)).toBe(false);
    board.open();
    board.report('a', at(1));
    expect(await board.waitFor(['a'], at(1), 10)).toBe(true);
  });

  it('tells the owner when somebody starts waiting (the checkpoint watcher polls only then)', async () => {
    let woken = 0;
    const board = createProgressBoard({ onWait: () => woken++ });
    board.report('a', at(2));
    await board.waitFor(['a'], at(1), 10);
    expect(woken).toBe(0);
    expect(await board.waitFor(['a'], at(3), 10)).toBe(false);
    expect(woken).toBe(1);
  });
});
