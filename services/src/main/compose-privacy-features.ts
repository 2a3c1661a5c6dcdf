import type { SendMail } from '../mail/index.js';
import type { Config } from '../platform/config/config.js';
import type { EventStore } from '../platform/event-store/event-store.port.js';
import type { Sql } from '../platform/sql/sql.port.js';
import type { PrivacyRoutesDeps } from '../api/routes/privacy/privacy.routes.js';
import {
  createChannelForget,
  createEmbeddedCompaction,
  createOwnerDataExport,
  createRetentionRun,
  createSecurityLog,
  createSubjectErasure,
  createVisitorConversationDeletion,
  type EmbeddedCompaction,
  retentionPolicyOf,
  type SubjectErasure,
  withEmbeddedCompaction,
} from '../privacy/index.js';
import { allProjections } from '@kesher/projections/registry';
import type { Platform } from './compose-platform.js';

/** One compaction per embedded database, however many modules of the process erase through it. */
const compactions = new WeakMap<Platform, EmbeddedCompaction>();

/**
 * The embedded default's compaction of its database files after erasures (privacy/erasure/
 * embedded-compaction.ts); undefined on Postgres, where vacuum and backups are the operator's.
 */
export function embeddedCompactionOf(platform: Platform): EmbeddedCompaction | undefined {
  if (platform.sql.kind !== 'pglite') return undefined;
  let compaction = compactions.get(platform);
  if (!compaction) {
    compaction = createEmbeddedCompaction({
      sql: platform.sql,
      readModelsCaughtUp: async () =>
        platform.projector.progress.waitFor(
          allProjections.map((p) => p.name),
          await platform.eventStore.headPosition(),
          60_000,
        ),
      onError: (error) => platform.log.error({ err: error }, 'privacy: compacting the embedded database failed'),
    });
    compactions.set(platform, compaction);
  }
  return compaction;
}

/** The deployment's subject erasure (privacy/erasure): the platform's key store, its log and read models. */
export function subjectErasureFor(platform: Platform, clock?: () => Date): SubjectErasure {
  const erasure = createSubjectErasure({
    eventStore: platform.eventStore,
    sealedEventStore: platform.sealedEventStore,
    keys: platform.subjectKeys,
    sql: platform.sql,
    clock,
  });
  const compaction = embeddedCompactionOf(platform);
  return compaction ? withEmbeddedCompaction(erasure, compaction) : erasure;
}

/**
 * The privacy features built on subject erasure (issue 24 items 4–6): the owner's export and security
 * log, the retention periods, a visitor's own deletion (API); the retention run and a channel customer's
 * `/forget` (workers).
 */
export function composePrivacyApi(deps: {
  sql: Sql;
  eventStore: EventStore;
  config: Config;
  clock: () => Date;
  erasure?: SubjectErasure;
}): PrivacyRoutesDeps {
  const securityLog = createSecurityLog({ sql: deps.sql, clock: deps.clock });
  return {
    readDb: deps.sql,
    clock: deps.clock,
    exporter: createOwnerDataExport({ readDb: deps.sql, clock: deps.clock }),
    securityLog,
    retention: retentionPolicyOf(deps.config),
    visitorDeletion:
      deps.erasure &&
      createVisitorConversationDeletion({ eventStore: deps.eventStore, erasure: deps.erasure, securityLog }),
  };
}

export function composePrivacyWorkers(deps: {
  sql: Sql;
  config: Config;
  erasure: SubjectErasure;
  sendMail: SendMail;
  publicUrl: string;
  clock?: () => Date;
  /** false: no retention timer (tests call `retention.tick()`). */
  scheduler?: boolean;
  /** Where a failed scheduled run is told (the workers' process log). */
  onError?: (error: unknown) => void;
}) {
  const clock = deps.clock ?? (() => new Date());
  const securityLog = createSecurityLog({ sql: deps.sql, clock });
  const retention = createRetentionRun({
    sql: deps.sql,
    erasure: deps.erasure,
    securityLog,
    policy: retentionPolicyOf(deps.config),
    sendMail: deps.sendMail,
    publicUrl: deps.publicUrl,
    clock,
    intervalMs: deps.scheduler === false ? 0 : deps.config.RETENTION_CHECK_INTERVAL_MS,
    onError: deps.onError ?? ((error) => console.error('retention', error)),
  });
  return { retention, forget: createChannelForget({ sql: deps.sql, erasure: deps.erasure, securityLog, clock }) };
}
