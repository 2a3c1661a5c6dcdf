import { loadConfig } from '../platform/config/config.js';
import { composeApi } from './compose-api.js';
import { composePlatform } from './compose-platform.js';
import { DataDirLockedError } from './data-dir-lock.js';
import { composeWorkers } from './compose-workers.js';
import { demoAccounts } from '../identity/demo-accounts.js';

/**
 * `make start`: the whole of Kesher in one process — API, projector, relay and workers — on whatever
 * the configuration selects (by default PGlite under ./data and the in-process bus; no services needed).
 */
const config = loadConfig();
// The API shares this process with the projector: requests hurry the read models they wait for, so
// the others may batch a moment's appends and keep out of a chat turn's way (projection-runner.ts).
const platform = await composePlatform(config, { applicationName: 'kesher', projectorBatchDelayMs: 50 }).catch((error: unknown) => {
  // Another server owns DATA_DIR: say so plainly and stop, without a stack trace.
  if (!(error instanceof DataDirLockedError)) throw error;
  console.error(error.message);
  process.exit(1);
});
await platform.projector.start();
const workers = await composeWorkers(platform);
await workers.start();
const { app, demoAccounts: demo } = await composeApi({
  platform,
  blobs: workers.blobs,
  knowledge: workers.knowledgeReads,
  runOutput: workers.runOutput,
  readModels: platform.projector.progress,
  // Errors (5xx with their stack) are logged on `make start` too; request lines stay quiet.
  logger: true,
});
const address = await app.listen({ port: config.PORT, host: config.HOST });
console.log(`Kesher is running at ${address.replace('127.0.0.1', 'localhost')}`);
console.log(`  event store: ${platform.adapters.eventStore}, read models: ${platform.adapters.readModels}, bus: ${platform.adapters.bus}, data: ${config.DATABASE_URL ? 'Postgres' : config.DATA_DIR}`);
console.log(`  API docs: ${address.replace('127.0.0.1', 'localhost')}/api/v1/docs`);
if (demo) console.log(`  demo sign-in: ${demoAccounts.map((a) => a.email).join(', ')} — password ${demoAccounts[0].password}`);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`${signal}: shutting down`);
  await app.close();
  await workers.stop();
  await platform.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
