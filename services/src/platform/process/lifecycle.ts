import type { ProcessLog } from './process-log.js';

export interface LifecycleOptions {
  log: ProcessLog;
  /** How long closing may take before the process gives up on it and exits 1 (SHUTDOWN_TIMEOUT_MS). */
  deadlineMs: number;
  /** Default SIGINT and SIGTERM. */
  signals?: readonly NodeJS.Signals[];
  /**
   * The exit code after a clean close on a signal: 0 (default) for services, whose normal end is a
   * signal; a one-shot command stopped half-way says so (130, as a shell does for Ctrl-C).
   */
  signalExitCode?: number;
  /** Default process.exit; given by tests that run the lifecycle in their own process. */
  exit?: (code: number) => void;
  /** Default the real `process`; tests give an emitter. */
  target?: Pick<NodeJS.Process, 'on' | 'off'>;
}

export interface Lifecycle {
  /** Closes once (later calls wait for the first) and exits: 0 after a clean close, 1 otherwise. */
  shutdown(reason: string, code?: number): Promise<void>;
  /** Forgets the signal and crash handlers (tests). */
  dispose(): void;
}

/**
 * The one way a Kesher process stops. A signal (or a crash) runs `close` once; the process exits 0
 * when it finished, 1 when it threw or was still running at the deadline — a close that hangs on a
 * stuck connection no longer keeps a container alive until the orchestrator's SIGKILL, and the log
 * says which. A second signal while closing exits 1 at once (someone pressed Ctrl-C twice). An
 * uncaught exception or unhandled rejection is logged with its stack, then closes and exits 1, as Node
 * would have exited, but with the connections let go and the reason in the structured log.
 */
export function closeOnSignal(close: () => Promise<void>, options: LifecycleOptions): Lifecycle {
  const { log, deadlineMs } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const target = options.target ?? process;
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  let closing: Promise<void> | undefined;

  function shutdown(reason: string, code = 0): Promise<void> {
    if (closing) return closing;
    log.info({ reason, deadlineMs }, 'shutting down');
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), deadlineMs)));
    closing = Promise.race([close().then(() => 'closed' as const), deadline])
      .then(
        (outcome) => {
          if (outcome === 'deadline') {
            log.error({ reason, deadlineMs }, `closing did not finish within ${deadlineMs} ms; exiting anyway`);
            return 1;
          }
          log.info({ reason, ms: Date.now() - started }, 'closed');
          return code;
        },
        (error: unknown) => {
          log.error({ err: error, reason }, 'closing failed');
          return 1;
        },
      )
      .then((exitCode) => {
        clearTimeout(timer);
        exit(exitCode);
      });
    return closing;
  }

  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      log.warn({ signal }, 'second signal while closing: exiting now');
      exit(1);
      return;
    }
    void shutdown(signal, options.signalExitCode ?? 0);
  };
  const onCrash = (error: unknown) => {
    log.fatal({ err: error }, 'uncaught error');
    if (closing) return;
    void shutdown('uncaught error', 1);
  };
  for (const signal of signals) target.on(signal, onSignal);
  target.on('uncaughtException', onCrash);
  target.on('unhandledRejection', onCrash);

  return {
    shutdown,
    dispose() {
      for (const signal of signals) target.off(signal, onSignal);
      target.off('uncaughtException', onCrash);
      target.off('unhandledRejection', onCrash);
    },
  };
}
