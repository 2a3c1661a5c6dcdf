/**
 * Deletes a table's expired rows now and then: at most once per `everyMs` per process, on a take, in the
 * background (a take never waits for it, and a failure only leaves rows for the next time).
 */
export function expiryPurge(
  purge: (beforeMs: number) => Promise<unknown>,
  options: { everyMs?: number; onError?: (error: unknown) => void } = {},
) {
  const everyMs = options.everyMs ?? 60_000;
  let last = -Infinity;
  let running: Promise<void> | undefined;
  return {
    /** Called on each take with the limiter's time. */
    maybe(nowMs: number) {
      if (running || nowMs - last < everyMs) return;
      last = nowMs;
      running = purge(nowMs)
        .then(
          () => undefined,
          (error) => options.onError?.(error),
        )
        .finally(() => (running = undefined));
    },
    /** Waits for a purge in flight (shutdown, tests). */
    settle: () => running ?? Promise.resolve(),
  };
}
