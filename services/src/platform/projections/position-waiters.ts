/**
 * Waiting until some progress (a projection's or the relay's checkpoint) has reached a target: callers
 * park a check, the owner of the progress calls `notify()` after every step, and a timeout bounds it.
 */
export function createPositionWaiters() {
  const waiters = new Set<() => void>();
  return {
    notify: () => waiters.forEach((check) => check()),
    /** Resolves true once `reached()` holds, false on timeout or once `gaveUp()` holds. */
    wait(reached: () => boolean, timeoutMs: number, gaveUp: () => boolean = () => false): Promise<boolean> {
      if (reached()) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => finish(false), timeoutMs);
        const check = () => {
          if (reached()) finish(true);
          else if (gaveUp()) finish(false);
        };
        function finish(ok: boolean) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(ok);
        }
        waiters.add(check);
      });
    },
  };
}
