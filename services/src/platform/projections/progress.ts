import { comparePositions, type AllPosition } from '@kesher/contracts';

/**
 * How far each checkpointed reader of the log (a read model, the relay) has got, and waiting for it to
 * get somewhere. Whoever owns the readers reports their positions; anyone may wait. This is the one
 * waiting mechanism: the projection runner and the relay report what they applied, the API process of
 * the production topology reports what it polls from the stored checkpoints (`createCheckpointWatcher`
 * in read-model-progress.ts), and read-your-writes and the SSE route wait through it.
 */
export interface ProgressBoard {
  position(name: string): AllPosition | undefined;
  /** True once every named reader has reached `position`; false after `timeoutMs`, or once closed. */
  waitFor(names: readonly string[], position: AllPosition, timeoutMs: number): Promise<boolean>;
  /** True once the named reader is strictly past `since` (anywhere, when `since` is undefined); false after `timeoutMs`. */
  waitForMove(name: string, since: AllPosition | undefined, timeoutMs: number): Promise<boolean>;
}

export interface ReportingProgressBoard extends ProgressBoard {
  report(name: string, position: AllPosition): void;
  reportAll(positions: Record<string, AllPosition>): void;
  /** A stopped reader: waits for it can no longer succeed and fail at their timeout (or at close). */
  forget(name: string): void;
  known(): Record<string, AllPosition>;
  /** How many waits are parked (the checkpoint watcher polls only while there are some). */
  waiting(): number;
  /** Ends every parked wait with false, and makes new ones fail at once, until `open()`. */
  close(): void;
  open(): void;
}

export function createProgressBoard(
  hooks: {
    /** A wait was parked. */
    onWait?: () => void;
    /** Somebody waits for these readers to reach `position` (not merely to move): they may want to hurry. */
    onWaitFor?: (names: readonly string[], position: AllPosition) => void;
  } = {},
): ReportingProgressBoard {
  const known = new Map<string, AllPosition>();
  const waiters = new Set<() => void>();
  let closed = false;
  const notify = () => waiters.forEach((check) => check());

  function wait(reached: () => boolean, timeoutMs: number): Promise<boolean> {
    if (reached()) return Promise.resolve(true);
    if (closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(false), timeoutMs);
      const check = () => {
        if (reached()) finish(true);
        else if (closed) finish(false);
      };
      function finish(ok: boolean) {
        clearTimeout(timer);
        waiters.delete(check);
        resolve(ok);
      }
      waiters.add(check);
      hooks.onWait?.();
    });
  }

  const past = (name: string, since: AllPosition | undefined, strictly: boolean) => {
    const now = known.get(name);
    if (now === undefined) return false;
    if (since === undefined) return true;
    const order = comparePositions(now, since);
    return strictly ? order > 0 : order >= 0;
  };

  return {
    position: (name) => known.get(name),
    waitFor(names, position, timeoutMs) {
      const reached = () => names.every((name) => past(name, position, false));
      if (!reached() && !closed)
        hooks.onWaitFor?.(
          names.filter((name) => !past(name, position, false)),
          position,
        );
      return wait(reached, timeoutMs);
    },
    waitForMove: (name, since, timeoutMs) => wait(() => past(name, since, true), timeoutMs),
    report(name, position) {
      known.set(name, position);
      notify();
    },
    reportAll(positions) {
      for (const [name, position] of Object.entries(positions)) known.set(name, position);
      notify();
    },
    forget(name) {
      known.delete(name);
    },
    known: () => Object.fromEntries(known),
    waiting: () => waiters.size,
    close() {
      closed = true;
      notify();
    },
    open() {
      closed = false;
    },
  };
}
