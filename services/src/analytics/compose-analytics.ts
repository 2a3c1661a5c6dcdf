import type { AllPosition } from '@kesher/contracts';
import { analyticsProjections } from '@kesher/projections/analytics/analytics-projections';
import { dailyActivityQueries } from '@kesher/projections/analytics/daily-activity/daily-activity.queries';
import type { CommandHandler } from '../platform/commands/command-handler.js';
import type { AwaitReadModels, ReadModelProgress } from '../platform/projections/read-model-progress.js';
import type { Sql } from '../platform/sql/sql.port.js';
import type { PlanOf } from '../plans/index.js';
import { createAnalyticsService, type AnalyticsService } from './analytics-service.js';
import type { AnalyticsGraphqlDeps } from './graphql/analytics-graphql.js';
import { createLimitViolations } from './limit-violations.js';
import { createLimitsService } from './limits-service.js';
import { createLiveCounters } from './live-counters.js';
import { createOperatorCheck, type OperatorCheck } from './operators.js';
import { createQueryTracker } from './tracked-queries.js';

/** What the analytics REST routes are given (api/routes/analytics). */
export interface AnalyticsRoutesDeps {
  analytics: AnalyticsService;
  trackQuery: ReturnType<typeof createQueryTracker>;
  readDb: Sql;
  clock: () => Date;
  awaitReadModels: AwaitReadModels;
  /** Who may see the process figures of /analytics/system-metrics (OPERATOR_EMAILS). */
  isOperator: OperatorCheck;
}

/** What the keyword analytics routes are given (api/routes/keyword-analytics). */
export interface KeywordAnalyticsRoutesDeps {
  analytics: AnalyticsService;
}

/** What the facade registers for analytics: the REST routes, the keyword routes and GraphQL. */
export interface AnalyticsApp {
  routes: AnalyticsRoutesDeps;
  keywords: KeywordAnalyticsRoutesDeps;
  graphql: AnalyticsGraphqlDeps;
}

export interface AnalyticsWiring {
  sql: Sql;
  handle: CommandHandler;
  readModels: ReadModelProgress;
  headPosition: () => Promise<AllPosition>;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
  planOf: PlanOf;
  storageUsed: (ownerId: string) => Promise<number>;
  filesOf: (ownerId: string, assistantId: string) => Promise<number>;
  storageLimitBytes?: number;
  authenticate: AnalyticsGraphqlDeps['authenticate'];
  /** Subscriptions' sockets, closed when their token is signed out. */
  trackSocket?: AnalyticsGraphqlDeps['trackSocket'];
  /** OPERATOR_EMAILS (counted once verified) and OPERATOR_ACCOUNT_IDS: the accounts that may read every owner's analytics. */
  operatorEmails?: string;
  operatorAccountIds?: string;
  /** NODE_ENV=development: GraphiQL is served to everyone; otherwise to operators only. */
  development: boolean;
  settled?: (ownerId: string) => Promise<unknown>;
  onError?: (error: unknown) => void;
}

/** The analytics module wired from the platform's ports (called by compose-api). */
export function composeAnalytics(wiring: AnalyticsWiring) {
  const isOperator = createOperatorCheck({ emails: wiring.operatorEmails, accountIds: wiring.operatorAccountIds });
  const analytics = createAnalyticsService({
    readDb: wiring.sql,
    clock: wiring.clock,
    readModelPositions: () => wiring.readModels.positions(),
    headPosition: wiring.headPosition,
    analyticsReadModels: analyticsProjections.map((projection) => projection.name),
  });
  const limitsService = createLimitsService({
    readDb: wiring.sql,
    planOf: wiring.planOf,
    clock: wiring.clock,
    storageUsed: wiring.storageUsed,
    filesOf: wiring.filesOf,
    storageLimitBytes: wiring.storageLimitBytes,
    settled: wiring.settled,
  });
  const limitViolations = createLimitViolations({ handle: wiring.handle, onError: wiring.onError });
  const app: AnalyticsApp = {
    routes: {
      analytics,
      trackQuery: createQueryTracker({ handle: wiring.handle }),
      readDb: wiring.sql,
      clock: wiring.clock,
      awaitReadModels: wiring.awaitReadModels,
      isOperator,
    },
    keywords: { analytics },
    graphql: {
      analytics,
      limits: limitsService,
      authenticate: wiring.authenticate,
      trackSocket: wiring.trackSocket,
      isOperator,
      graphiql: wiring.development ? 'everyone' : 'operators',
      liveCounters: (publish) =>
        createLiveCounters({
          readModels: wiring.readModels,
          activity: dailyActivityQueries(wiring.sql),
          publish,
          clock: wiring.clock,
          onError: wiring.onError,
        }),
    },
  };
  return { app, limitsService, limitViolations, isOperator };
}
