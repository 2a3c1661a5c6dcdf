import { assistantMigrations } from '../assistants/index.js';
import { chatMigrations } from '../chat/index.js';
import { identityMigrations } from '../identity/index.js';
import { driveMigrations } from '../drive/index.js';
import { blobMigrations } from '../platform/blobs/blob.migrations.js';
import { embeddingMigrations } from '../knowledge/index.js';
import { busMigrations } from '../platform/bus/bus.migrations.js';
import { eventStoreMigrations } from '../platform/event-store/sql-event-store.schema.js';
import { checkpointMigrations } from '../platform/projections/checkpoint.migrations.js';
import { limitsMigrations } from '../platform/limits/limits.migrations.js';
import type { SchemaModule } from '../platform/sql/migrations.js';
import {
  channelForgetMigrations,
  retentionMigrations,
  securityLogMigrations,
  subjectKeyMigrations,
} from '../privacy/index.js';

/**
 * Every module that owns tables in the deployment's database, in the order their migration lists are
 * applied. A new module (crawler, billing, channels …) adds its list here; a new table of an existing
 * module is a new entry at the end of that module's list. Read models are not here: their schemas are
 * applied, and dropped for a rebuild, by the projection runner (each projection's own `migrations`).
 *
 * The event store's tables are only made where the event log is in this database (not on EventStoreDB).
 */
export function schemaModules(options: { sqlEventStore: boolean }): SchemaModule[] {
  return [
    ...(options.sqlEventStore ? [{ module: 'event-store', migrations: eventStoreMigrations }] : []),
    { module: 'checkpoints', migrations: checkpointMigrations },
    { module: 'bus', migrations: busMigrations },
    { module: 'blobs', migrations: blobMigrations },
    { module: 'knowledge-embeddings', migrations: embeddingMigrations },
    { module: 'identity', migrations: identityMigrations },
    { module: 'assistants', migrations: assistantMigrations },
    { module: 'drive', migrations: driveMigrations },
    { module: 'chat', migrations: chatMigrations },
    { module: 'limits', migrations: limitsMigrations },
    { module: 'privacy-keys', migrations: subjectKeyMigrations },
    { module: 'privacy-security-log', migrations: securityLogMigrations },
    { module: 'privacy-retention', migrations: retentionMigrations },
    { module: 'privacy-forget', migrations: channelForgetMigrations },
  ];
}
