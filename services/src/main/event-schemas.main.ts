import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENT_SCHEMAS_PATH, eventSchemasJson } from '../analytics/index.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Writes docs/event-schemas.json from the contracts (the event types, their schemas, the Kafka topics). */
writeFileSync(`${repoRoot}${EVENT_SCHEMAS_PATH}`, eventSchemasJson());
console.log(`wrote ${EVENT_SCHEMAS_PATH}`);
