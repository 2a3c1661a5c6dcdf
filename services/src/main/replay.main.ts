import { allProjections } from '@kesher/projections/registry';
import { loadConfig } from '../platform/config/config.js';
import { createProjectionRunner } from '../platform/projections/projection-runner.js';
import { composePlatform } from './compose-platform.js';

/**
 * `npm run replay -- <projection>`: drops one read model and rebuilds it from the first event, then
 * exits. A projector running elsewhere notices its checkpoint moved and continues from the rebuilt one.
 * (In the embedded default, stop `make start` first: PGlite's folder has one owner at a time.)
 */
const name = process.argv[2];
const projection = allProjections.find((p) => p.name === name);
if (!projection) {
  console.error(`usage: npm run replay -- <projection>\nprojections: ${allProjections.map((p) => p.name).join(', ')}`);
  process.exit(2);
}

const platform = await composePlatform(loadConfig(), { applicationName: 'kesher-replay' });
const runner = createProjectionRunner({ eventStore: platform.eventStore, sql: platform.sql, projections: [projection], batchSize: platform.config.PROJECTOR_BATCH_SIZE });
const started = Date.now();
const head = await platform.eventStore.headPosition();
// Drops the read model's tables, applies its migrations again and reads from the first event.
await runner.start({ rebuild: [projection.name] });
while (!(await runner.waitForPosition(head, { timeoutMs: 10_000 }))) {
  console.log(`replaying ${name}… at ${runner.positions()[projection.name]?.prepare ?? 0n} of ${head.prepare}`);
}
console.log(`replayed ${name} up to ${head.commit}:${head.prepare} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await runner.stop();
await platform.close();
