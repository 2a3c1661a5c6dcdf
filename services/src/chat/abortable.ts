/**
 * Iterates `source` until it ends or `signal` aborts, whichever comes first. A provider that ignores its
 * signal (or a network read that never returns) must not hold a worker past a run's deadline: on abort
 * we stop waiting for it and ask it to clean up, without waiting for that either.
 */
export async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  if (signal.aborted) return;
  const iterator = source[Symbol.asyncIterator]();
  let onAbort: () => void = () => {};
  const aborted = new Promise<{ done: true; value: undefined }>((resolve) => {
    onAbort = () => resolve({ done: true, value: undefined });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (signal.aborted) void iterator.return?.()?.catch(() => {});
  }
}
