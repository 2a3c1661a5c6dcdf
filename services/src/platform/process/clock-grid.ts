/**
 * How long until the next multiple of `every` ms on the clock (0 when `every` is 0). Timers of one process
 * set with it fire together, whenever each was set: the readers' deferred checkpoint writes meet in one
 * statement, and their idle polls of the log in one read.
 */
export function alignedDelay(every: number, now = Date.now()): number {
  return every > 0 ? every - (now % every) : 0;
}
