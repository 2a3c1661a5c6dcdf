/**
 * The public entry of the plans: plan book, allowances, feature gates, storage and message limits. Other
 * modules, the facade and the composition roots import only this file (DESIGN.md §3, eslint.config.js).
 */
export { curatedAnswerLimit } from './curated-answer-limits.js';
export { featureAllowed, requireFeature } from './feature-gates.js';
export { createMessageQuota } from './message-quota.js';
export type { MessageQuota } from './message-quota.js';
export { createHolding, createPlanAllowances } from './plan-allowances.js';
export type { PlanAllowances } from './plan-allowances.js';
export { createPlanBook, rowGivesPlan } from './plan-book.js';
export type { PlanOf } from './plan-book.js';
export { createStorageHolds } from './storage-holds.js';
export type { StorageHolds } from './storage-holds.js';
export { createStorageLimit } from './storage-limit.js';
export type { StorageLimitOf } from './storage-limit.js';
