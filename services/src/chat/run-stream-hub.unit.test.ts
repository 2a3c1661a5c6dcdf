import { describe, expect, it } from 'vitest';
import { untilAborted } from './abortable.js';
import { cutToFit } from './notify.run-stream-hub.js';
import { runStreamHubContract } from './testing/run-stream-hub.contract.js';
import { createRunStreamHub, type RunStreamEvent } from './run-stream-hub.js';

runStreamHubContract('in-process', async () => {
  const hub = createRunStreamHub();
  return { producer: hub, follower: hub, teardown: async () => {} };
});

describe('run stream hub', () => {
  it('replays what a late follower missed, then follows live until the end', () => {
    const hub = createRunStreamHub();
    hub.append('r1', 'One ');
    hub.append('r1', 'two ');
    const seen: RunStreamEvent[] = [];
    hub.follow('r1', 0, (e) => seen.push(e));
    hub.append('r1', 'three');
    hub.end('r1');
    hub.append('r1', 'ignored after the end');
    expect(seen).toEqual([
      { kind: 'delta', seq: 1, text: 'One ' },
      { kind: 'delta', seq: 2, text: 'two ' },
      { kind: 'delta', seq: 3, text: 'three' },
      { kind: 'end' },
    ]);
  });

  it('resumes after the last event id a client has', () => {
    const hub = createRunStreamHub();
    ['a', 'b', 'c'].forEach((t) => hub.append('r1', t));
    hub.end('r1');
    const seen: RunStreamEvent[] = [];
    hub.follow('r1', 2, (e) => seen.push(e));
    expect(seen).toEqual([{ kind: 'delta', seq: 3, text: 'c' }, { kind: 'end' }]);
  });

  it('follows a run before its worker starts, and forgets the oldest finished runs beyond its capacity', () => {
    const hub = createRunStreamHub({ capacity: 2 });
    const early: RunStreamEvent[] = [];
    hub.follow('r0', 0, (e) => early.push(e));
    for (const run of ['r1', 'r2', 'r3']) {
      hub.append(run, 'x');
      hub.end(run);
    }
    hub.append('r0', 'kept while followed');
    expect(early).toEqual([{ kind: 'delta', seq: 1, text: 'kept while followed' }]);
    const late: RunStreamEvent[] = [];
    hub.follow('r1', 0, (e) => late.push(e));
    expect(late).toEqual([]);
  });
});

describe('cutting a piece to the NOTIFY payload limit', () => {
  const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

  it('keeps a piece that fits, and cuts one that does not on a code point, counting JSON escapes', () => {
    expect(cutToFit('short', 100)).toEqual(['short', '']);
    const text = 'אב"🍞\\'.repeat(50);
    const [head, rest] = cutToFit(text, 101);
    expect(head + rest).toBe(text);
    expect(jsonBytes(head)).toBeLessThanOrEqual(101);
    expect(jsonBytes(head + rest.slice(0, [...rest][0]!.length))).toBeGreaterThan(101);
    expect(head.at(-1)).not.toMatch(/[\uD800-\uDBFF]/);
  });
});

describe('untilAborted', () => {
  it('stops waiting for a source that ignores the abort', async () => {
    async function* stuck() {
      yield 1;
      await new Promise(() => {});
      yield 2;
    }
    const controller = new AbortController();
    const seen: number[] = [];
    for await (const value of untilAborted(stuck(), controller.signal)) {
      seen.push(value);
      controller.abort();
    }
    expect(seen).toEqual([1]);
  });
});
