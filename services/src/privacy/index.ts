/**
 * The public entry of privacy: erasure, account and visitor deletion, retention, data export, keys and the
 * security log. Other modules, the facade and the composition roots import only this file (DESIGN.md §3,
 * eslint.config.js).
 */
export { createAccountDeletion } from './account-deletion/account-deletion.js';
export type { AccountDeletion } from './account-deletion/account-deletion.js';
export { createEmbeddedCompaction, withEmbeddedCompaction } from './erasure/embedded-compaction.js';
export type { EmbeddedCompaction } from './erasure/embedded-compaction.js';
export { createSubjectErasure } from './erasure/subject-erasure.js';
export { createOwnerDataExport } from './export/owner-data-export.js';
export type { OwnerDataExport } from './export/owner-data-export.js';
export { createSqlSubjectKeys } from './keys/sql-subject-keys.js';
export { subjectKeyMigrations } from './keys/subject-key.migrations.js';
export { conversationKeptUntil, retentionPolicyOf } from './retention/retention-policy.js';
export type { RetentionPolicy } from './retention/retention-policy.js';
export { createRetentionRun } from './retention/retention-run.js';
export { retentionMigrations } from './retention/retention.migrations.js';
export { securityLogMigrations } from './security-log/security-log.migrations.js';
export { createSecurityLog } from './security-log/security-log.js';
export type { SecurityLog } from './security-log/security-log.js';
export type { SubjectErasure } from './subject-erasure.port.js';
export { channelForgetMigrations } from './visitor-deletion/channel-forget.migrations.js';
export { createChannelForget } from './visitor-deletion/channel-forget.js';
export { createVisitorConversationDeletion } from './visitor-deletion/visitor-conversation-deletion.js';
export type { VisitorConversationDeletion } from './visitor-deletion/visitor-conversation-deletion.js';
