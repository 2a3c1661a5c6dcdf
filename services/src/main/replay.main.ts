import { analyticsProjections } from '@kesher/projections/analytics/analytics-projections';
import { allProjections } from '@kesher/projections/registry';
import type { Projection } from '@kesher/contracts/ports/projection';
import { loadConfig } from '../platform/config/config.js';
import { closeOnSignal } from '../platform/process/lifecycle.js';
import { rebuildTogether, RebuildInterruptedError } from '../platform/projections/rebuild-together.js';
import { composePlatform } from './compose-platform.js';

/**
 * `npm run replay -- <projection> [<projection>…]` (or `analytics`: every analytics read model): drops
 * the named read models and rebuilds them from the first event in one pass over the log, then exits. A
 * projector running elsewhere notices their checkpoints moved and continues from the rebuilt ones.
 * (In the embedded default, stop `make start` first: PGlite's folder has one owner at a time.)
 */
const names = process.argv.slice(2);
const unknown = names.filter((name) => name !== 'analytics' && !allProjections.some((p) => p.name === name));
const chosen: Projection[] = [
  ...new Set(
    names.flatMap((name) =>
      name === 'analytics' ? analyticsProjections : allProjections.filter((p) => p.name === name),
    ),
  ),
];
if (names.length === 0 || unknown.length > 0) {
  console.error(
    `usage: npm run replay -- <projection>… | analytics\nprojections: ${allProjections.map((p) => p.name).join(', ')}`,
  );
  process.exit(2);
}

const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-replay' });
const log = platform.log;
// Stopped half-way, the rebuilt read models' batch in progress rolls back; a projector continues from the checkpoints.
const lifecycle = closeOnSignal(() => platform.close(), {
  log,
  deadlineMs: config.SHUTDOWN_TIMEOUT_MS,
  signalExitCode: 130,
});
const label = chosen.map((p) => p.name).join(', ');
const started = Date.now();
let lastReported = started;
try {
  const result = await rebuildTogether({
    eventStore: platform.eventStore,
    sql: platform.sql,
    projections: chosen,
    batchSize: config.REPLAY_BATCH_SIZE,
    onBatch: ({ events, position, head }) => {
      if (Date.now() - lastReported < 10_000) return;
      lastReported = Date.now();
      log.info(
        { events, at: position.prepare.toString(), head: head.prepare.toString() },
        `replaying ${label}… ${events} events, at ${position.prepare} of ${head.prepare}`,
      );
    },
  });
  log.info(
    { events: result.events, ms: Date.now() - started },
    `replayed ${label} up to ${result.position.commit}:${result.position.prepare} (${result.events} events) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (error) {
  if (!(error instanceof RebuildInterruptedError)) throw error;
  log.warn(error.message);
}
await lifecycle.shutdown('done');
