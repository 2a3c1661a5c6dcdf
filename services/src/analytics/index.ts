/**
 * The public entry of analytics: the analytics service, limits, GraphQL, exports and the read models'
 * composition. Other modules, the facade and the composition roots import only this file (DESIGN.md §3,
 * eslint.config.js).
 */
export { createAssistantDirectory } from './assistant-directory.js';
export { composeAnalytics } from './compose-analytics.js';
export type { AnalyticsApp, AnalyticsRoutesDeps, KeywordAnalyticsRoutesDeps } from './compose-analytics.js';
export { EVENT_SCHEMAS_PATH, eventSchemasJson } from './event-schemas.js';
export { createCopyLogReader } from './export/copy-log-reader.js';
export { eventStoreSource, exportEvents, progressLine, sqlLogSource } from './export/event-export.js';
export type { ExportFilter } from './export/event-export.js';
export { createSqlLogReader } from './export/sql-log-reader.js';
export { analyticsGraphqlPlugin } from './graphql/analytics-graphql.js';
export type { LimitViolations } from './limit-violations.js';
export type { LimitsService } from './limits-service.js';
