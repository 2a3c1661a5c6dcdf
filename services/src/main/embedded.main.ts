import { loadConfig } from '../platform/config/config.js';
import { closeOnSignal } from '../platform/process/lifecycle.js';
import { composeApi } from './compose-api.js';
import { composePlatform } from './compose-platform.js';
import { DataDirLockedError } from './data-dir-lock.js';
import { composeWorkers } from './compose-workers.js';
import { demoAccounts } from '../identity/index.js';

/**
 * `make start`: the whole of Kesher in one process — API, projector, relay and workers — on whatever
 * the configuration selects (by default PGlite under ./data and the in-process bus; no services needed).
 */
const config = loadConfig();
// The API shares this process with the projector: requests hurry the read models they wait for, so
// the others may batch a moment's appends and keep out of a chat turn's way (projection-runner.ts).
const platform = await composePlatform(config, { applicationName: 'kesher', projectorBatchDelayMs: 50 }).catch(
  (error: unknown) => {
    // Another server owns DATA_DIR: say so plainly (a sentence for whoever typed `make start`, not a log
    // line) and stop, without a stack trace.
    if (!(error instanceof DataDirLockedError)) throw error;
    console.error(error.message);
    process.exit(1);
  },
);
// The runs are read from the log here (run-requests.ts), so nothing on a chat turn's way waits for the
// bus's copy: the relay batches a moment's appends too, read together with the read models'.
const workers = await composeWorkers(platform, { relayBatchDelayMs: 50 });
let app: Awaited<ReturnType<typeof composeApi>>['app'] | undefined;
// The API first (no new requests, the ones in flight answered), then the workers' handlers, then the
// projector and connections.
closeOnSignal(
  async () => {
    await app?.close();
    await workers.stop();
    await platform.close();
  },
  { log: platform.log, deadlineMs: config.SHUTDOWN_TIMEOUT_MS },
);
await platform.projector.start();
await workers.start();
const composed = await composeApi({
  platform,
  blobs: workers.blobs,
  knowledge: workers.knowledgeReads,
  runOutput: workers.runOutput,
  readModels: platform.projector.progress,
  // Errors (5xx with their stack) are logged on `make start` too; request lines stay quiet.
  logger: true,
});
app = composed.app;
const demo = composed.demoAccounts;
// The banner is for the person who typed `make start`: plain lines, not log entries.
const address = await app.listen({ port: config.PORT, host: config.HOST });
console.log(`Kesher is running at ${address.replace('127.0.0.1', 'localhost')}`);
console.log(
  `  event store: ${platform.adapters.eventStore}, read models: ${platform.adapters.readModels}, bus: ${platform.adapters.bus}, data: ${config.DATABASE_URL ? 'Postgres' : config.DATA_DIR}`,
);
console.log(`  API docs: ${address.replace('127.0.0.1', 'localhost')}/api/v1/docs`);
if (demo)
  console.log(`  demo sign-in: ${demoAccounts.map((a) => a.email).join(', ')} — password ${demoAccounts[0].password}`);
