import { Worker } from 'node:worker_threads';
import { extractionErrors } from '../extract/extraction-error.js';
import type { ExtractionSandboxOptions } from '../limits.js';
import type { ReadFile, ReadFileInput, ReadFileResult } from '../ingest/read-file.js';
import type { WorkerJob, WorkerReply } from './extraction-protocol.js';

/**
 * The extraction sandbox: untrusted files are read in worker threads, never on the event loop that
 * answers HTTP. Each worker has a capped heap (V8 resourceLimits) and each file a wall-clock limit;
 * a worker that runs out of either is terminated — the file fails with the reason the owner sees,
 * "too large when unpacked" or "took too long to read" — and a fresh worker takes its place. The
 * process never shares the fate of a file.
 *
 * Worker threads rather than child processes: a worker starts in a few hundred milliseconds, shares
 * nothing but its messages (the file's bytes and the result are moved, not copied), and V8 enforces its
 * heap limit and terminates it on request even in the middle of a synchronous loop. What V8 does not
 * count is memory outside the heap (Buffers): that is what the UnpackBudget bounds while inflating.
 *
 * At most `poolSize` files are read at once. Waiting files are taken fairly across owners — the owner
 * with the fewest files being read goes first, then whoever waited longest — so one owner's uploads do
 * not queue everyone else's behind them.
 */
export interface ExtractionPool {
  read: ReadFile;
  /** Terminates the workers; files waiting or being read are refused (their messages are retried later). */
  close(): Promise<void>;
  stats(): ExtractionPoolStats;
}

export interface ExtractionPoolStats {
  workers: number;
  reading: number;
  waiting: number;
  /** Files read to a result (success or an ordinary failure), and workers lost to each cause. */
  read: number;
  outOfMemory: number;
  timedOut: number;
  crashed: number;
}

export interface ExtractionPoolOptions extends ExtractionSandboxOptions {
  /** Told when a worker is terminated and replaced, and why (for the log). */
  onWorkerLost?: (
    cause: 'memory' | 'time' | 'crash',
    file: { kind: string; filename: string },
    detail?: string,
  ) => void;
}

interface Job {
  id: number;
  input: ReadFileInput;
  resolve: (result: ReadFileResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker | undefined;
  starting: Promise<Worker> | undefined;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** The worker's code: this folder's worker module, loaded through tsx when the sources run as TypeScript. */
function bootstrap(): string {
  const self = import.meta.url;
  const typescript = self.endsWith('.ts');
  const entry = new URL(`./extraction.worker.${typescript ? 'ts' : 'js'}`, self).href;
  const loader = typescript
    ? `const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}); register();`
    : '';
  // A failure to load rejects this promise, which ends the worker with an 'error' the pool reports.
  return `(async () => { ${loader} await import(${JSON.stringify(entry)}); })();`;
}

export function createExtractionPool(options: ExtractionPoolOptions): ExtractionPool {
  const code = bootstrap();
  const slots: Slot[] = Array.from({ length: Math.max(1, options.poolSize) }, () => ({
    worker: undefined,
    starting: undefined,
    job: undefined,
    timer: undefined,
  }));
  /** Waiting jobs per owner, in arrival order; `arrival` orders the owners' oldest jobs. */
  const waiting = new Map<string, { job: Job; arrival: number }[]>();
  const readingByOwner = new Map<string, number>();
  /** When each owner with files waiting or being read last had one started: ties go to the one served longest ago. */
  const lastStarted = new Map<string, number>();
  let starts = 0;
  const counts = { read: 0, outOfMemory: 0, timedOut: 0, crashed: 0 };
  let arrivals = 0;
  let ids = 0;
  let closed = false;

  function spawn(slot: Slot): Promise<Worker> {
    const worker = new Worker(code, {
      eval: true,
      // The parent's flags (tsx's loader, --cpu-prof…) are not for the sandbox.
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: options.maxMemoryMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.round(options.maxMemoryMb / 8))),
        stackSizeMb: 4,
      },
    });
    worker.unref();
    const starting = new Promise<Worker>((resolve, reject) => {
      const failedToStart = (error: unknown) =>
        reject(new Error(`extraction worker did not start: ${error instanceof Error ? error.message : String(error)}`));
      worker.once('error', failedToStart);
      worker.once('exit', (code) => failedToStart(new Error(`exited with code ${code}`)));
      worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'ready') {
          worker.removeAllListeners('error').removeAllListeners('exit');
          watch(slot, worker);
          resolve(worker);
        } else onReply(slot, worker, reply);
      });
    });
    slot.worker = worker;
    slot.starting = starting;
    starting.catch(() => {
      if (slot.worker === worker) {
        slot.worker = undefined;
        slot.starting = undefined;
      }
    });
    return starting;
  }

  /** After start-up: a worker that dies takes its file with it, for the reason it died. */
  function watch(slot: Slot, worker: Worker) {
    worker.on('error', (error: Error & { code?: string }) => {
      if (slot.worker !== worker) return;
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') lose(slot, 'memory', error.message);
      else lose(slot, 'crash', error.message);
    });
    worker.on('exit', (exitCode) => {
      if (slot.worker === worker) lose(slot, 'crash', `exited with code ${exitCode}`);
    });
  }

  function onReply(slot: Slot, worker: Worker, reply: WorkerReply) {
    const job = slot.job;
    if (slot.worker !== worker || !job || reply.type === 'ready' || reply.id !== job.id) return;
    if (reply.type === 'result') {
      counts.read++;
      done(slot, job);
      job.resolve(reply.result);
    } else {
      // Our own code threw on this file (not a parser refusing it): retried by the bus, then parked.
      done(slot, job);
      job.reject(new Error(`reading ${job.input.filename} failed: ${reply.message}`));
    }
    pump();
  }

  /** The worker is gone (or being terminated): its file fails for that cause, and a new worker starts. */
  function lose(slot: Slot, cause: 'memory' | 'time' | 'crash', detail?: string) {
    const worker = slot.worker;
    const job = slot.job;
    slot.worker = undefined;
    slot.starting = undefined;
    if (worker) void worker.terminate();
    if (job) {
      done(slot, job);
      if (cause === 'memory') counts.outOfMemory++;
      else if (cause === 'time') counts.timedOut++;
      else counts.crashed++;
      options.onWorkerLost?.(cause, { kind: job.input.kind, filename: job.input.filename }, detail);
      const failure =
        cause === 'memory'
          ? extractionErrors.unpackedTooLarge()
          : cause === 'time'
            ? extractionErrors.tookTooLong(Math.round(options.timeLimitMs / 1000))
            : extractionErrors.corrupt(job.input.kind);
      job.resolve({ failed: failure.reason });
    }
    // Replace it now, so the next file does not wait for a worker to start.
    if (!closed) spawn(slot).catch(() => undefined);
    pump();
  }

  function done(slot: Slot, job: Job) {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    slot.worker?.unref();
    const owner = job.input.ownerId;
    const reading = (readingByOwner.get(owner) ?? 1) - 1;
    if (reading > 0) readingByOwner.set(owner, reading);
    else readingByOwner.delete(owner);
    if (reading <= 0 && !waiting.has(owner)) lastStarted.delete(owner);
  }

  /**
   * The owner with the fewest files being read goes first; among those, the one served longest ago (so
   * owners take turns), then the one whose file waited longest.
   */
  function nextJob(): Job | undefined {
    let best: { owner: string; key: [number, number, number] } | undefined;
    for (const [owner, queue] of waiting) {
      const key: [number, number, number] = [
        readingByOwner.get(owner) ?? 0,
        lastStarted.get(owner) ?? 0,
        queue[0]!.arrival,
      ];
      if (
        !best ||
        key[0] < best.key[0] ||
        (key[0] === best.key[0] && (key[1] < best.key[1] || (key[1] === best.key[1] && key[2] < best.key[2])))
      )
        best = { owner, key };
    }
    if (!best) return undefined;
    const queue = waiting.get(best.owner)!;
    const { job } = queue.shift()!;
    if (queue.length === 0) waiting.delete(best.owner);
    lastStarted.set(best.owner, ++starts);
    return job;
  }

  function pump() {
    for (const slot of slots) {
      if (closed || waiting.size === 0) return;
      if (slot.job) continue;
      const job = nextJob()!;
      slot.job = job;
      readingByOwner.set(job.input.ownerId, (readingByOwner.get(job.input.ownerId) ?? 0) + 1);
      void start(slot, job);
    }
  }

  async function start(slot: Slot, job: Job) {
    let worker: Worker;
    try {
      const starting = slot.starting ?? spawn(slot);
      // Busy workers keep the process alive (a script awaiting a file must not exit under it); idle ones do not.
      slot.worker?.ref();
      worker = await starting;
    } catch (error) {
      if (slot.job === job) done(slot, job);
      job.reject(error as Error);
      pump();
      return;
    }
    if (slot.job !== job || closed) return;
    worker.ref();
    // The worker gets its own copy to own and move back; the caller's buffer may be a slice of a pool.
    const bytes = new Uint8Array(job.input.bytes);
    const message: WorkerJob = { id: job.id, bytes, kind: job.input.kind, filename: job.input.filename };
    slot.timer = setTimeout(() => {
      if (slot.job === job) lose(slot, 'time');
    }, options.timeLimitMs);
    worker.postMessage(message, [bytes.buffer]);
  }

  return {
    read(input) {
      if (closed) return Promise.reject(new Error('the extraction sandbox is closed'));
      return new Promise<ReadFileResult>((resolve, reject) => {
        const job: Job = { id: ++ids, input, resolve, reject };
        const queue = waiting.get(input.ownerId) ?? [];
        queue.push({ job, arrival: ++arrivals });
        waiting.set(input.ownerId, queue);
        pump();
      });
    },
    async close() {
      closed = true;
      const refused = new Error('the extraction sandbox is closed');
      for (const queue of waiting.values()) for (const { job } of queue) job.reject(refused);
      waiting.clear();
      await Promise.all(
        slots.map(async (slot) => {
          const { worker, job } = slot;
          if (job) {
            done(slot, job);
            job.reject(refused);
          }
          slot.worker = undefined;
          slot.starting = undefined;
          if (worker) await worker.terminate();
        }),
      );
    },
    stats: () => ({
      workers: slots.filter((slot) => slot.worker).length,
      reading: slots.filter((slot) => slot.job).length,
      waiting: [...waiting.values()].reduce((n, queue) => n + queue.length, 0),
      ...counts,
    }),
  };
}
