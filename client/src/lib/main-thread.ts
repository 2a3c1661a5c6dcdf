/**
 * Start-up on a phone: long pieces of work are split into separate tasks, so the main thread is never
 * blocked for long and a tap in between is answered at once; work nobody waits for waits for idle time.
 */

/** Lets the browser run other tasks (input, rendering) before the caller goes on. */
export const yieldToMain = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Resolves when the browser is idle (at the latest after `timeoutMs`). */
export function whenIdle(timeoutMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 0);
  });
}
