import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeOnSignal } from './lifecycle.js';
import { createProcessLog, messageFields } from './process-log.js';

/** The process's one way to stop, in this process: a fake `process` to signal, the exit recorded, the log kept. */
function harness(close: () => Promise<void>, deadlineMs = 1_000) {
  const target = new EventEmitter();
  const lines: Record<string, unknown>[] = [];
  const log = createProcessLog('kesher-test', {
    level: 'debug',
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  const exits: number[] = [];
  const lifecycle = closeOnSignal(close, {
    log,
    deadlineMs,
    target: target as unknown as NodeJS.Process,
    exit: (code) => void exits.push(code),
  });
  return { target, lines, exits, lifecycle };
}

describe('closeOnSignal', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('given a process doing work, when SIGTERM arrives, then it closes once and exits 0, saying so in its structured log', async () => {
    let finishWork!: () => void;
    const work = new Promise<void>((resolve) => (finishWork = resolve));
    const close = vi.fn(() => work);
    const { target, lines, exits, lifecycle } = harness(close);

    target.emit('SIGTERM', 'SIGTERM');
    expect(close).toHaveBeenCalledTimes(1);
    expect(exits).toEqual([]); // the work in flight is waited for
    finishWork();
    await lifecycle.shutdown('again');

    expect(close).toHaveBeenCalledTimes(1);
    expect(exits).toEqual([0]);
    expect(lines.map((line) => line.msg)).toEqual(['shutting down', 'closed']);
    expect(lines[0]).toMatchObject({ process: 'kesher-test', reason: 'SIGTERM', deadlineMs: 1_000, level: 30 });
  });

  it('given a close that hangs, when the deadline passes, then it exits 1 and logs that it gave up', async () => {
    const { target, lines, exits } = harness(() => new Promise<void>(() => {}), 10_000);
    target.emit('SIGINT', 'SIGINT');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toMatchObject({
      level: 50,
      process: 'kesher-test',
      msg: 'closing did not finish within 10000 ms; exiting anyway',
    });
  });

  it('given a close that throws, then it exits 1 with the error in the log', async () => {
    const { lines, exits, lifecycle } = harness(async () => {
      throw new Error('pool would not end');
    });
    await lifecycle.shutdown('SIGTERM');
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toMatchObject({ level: 50, msg: 'closing failed', err: { message: 'pool would not end' } });
  });

  it('given a shutdown in progress, when a second signal arrives, then it exits 1 at once', () => {
    const { target, exits } = harness(() => new Promise<void>(() => {}));
    target.emit('SIGINT', 'SIGINT');
    target.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([1]);
  });

  it('given an uncaught error, then it is logged as fatal, the process closes and exits 1', async () => {
    const close = vi.fn(async () => {});
    const { target, lines, exits, lifecycle } = harness(close);
    target.emit('uncaughtException', new Error('handler blew up'));
    await lifecycle.shutdown('waiting for the first');
    expect(close).toHaveBeenCalledTimes(1);
    expect(exits).toEqual([1]);
    expect(lines[0]).toMatchObject({ level: 60, msg: 'uncaught error', err: { message: 'handler blew up' } });
  });

  it('given a one-shot command, when it is interrupted, then the clean close still exits with the command’s code', async () => {
    const target = new EventEmitter();
    const exits: number[] = [];
    const log = createProcessLog('kesher-export', { level: 'silent' });
    const lifecycle = closeOnSignal(async () => {}, {
      log,
      deadlineMs: 100,
      signalExitCode: 130,
      target: target as unknown as NodeJS.Process,
      exit: (code) => void exits.push(code),
    });
    target.emit('SIGINT', 'SIGINT');
    await lifecycle.shutdown('again');
    expect(exits).toEqual([130]);
  });

  it('once disposed, signals no longer reach it', () => {
    const close = vi.fn(async () => {});
    const { target, lifecycle } = harness(close);
    lifecycle.dispose();
    expect(target.listenerCount('SIGTERM') + target.listenerCount('uncaughtException')).toBe(0);
  });
});

describe('messageFields', () => {
  const message = {
    topic: 'kesher.thread',
    partition: 2,
    offset: '41',
    key: 'thread-1',
    headers: { 'event-id': 'e1', 'event-type': 'MessagePosted' },
  };

  it('finds a bus message again by where it sits, its event and the correlation id of the command behind it', () => {
    const value = JSON.stringify({ eventId: 'e1', type: 'MessagePosted', metadata: { correlationId: 'req-7' } });
    expect(messageFields({ ...message, value })).toEqual({
      topic: 'kesher.thread',
      partition: 2,
      offset: '41',
      key: 'thread-1',
      eventId: 'e1',
      eventType: 'MessagePosted',
      correlationId: 'req-7',
    });
  });

  it('leaves the correlation id out when the value is not an event', () => {
    expect(messageFields({ ...message, value: 'not json' })).not.toHaveProperty('correlationId');
  });
});
