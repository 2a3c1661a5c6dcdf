import { storageFullMessage } from '@kesher/contracts';
import type { Config } from '../platform/config/config.js';
import type { PlanOf } from './plan-book.js';

const MB = 1024 * 1024;

/** The knowledge storage an owner may fill now, and the refusal's text (which limit, how to lift it). */
export type StorageLimitOf = (ownerId: string) => Promise<{ bytes: number; message: string }>;

/**
 * The plan's max_storage_mb, for uploads and crawled pages alike. KNOWLEDGE_STORAGE_LIMIT_BYTES overrides
 * the free plan's (tests and benchmarks use it, like the PLAN_FREE_* overrides); paid plans keep theirs.
 * After a downgrade the owner keeps what is stored and only new files past the limit are refused.
 */
export function createStorageLimit(deps: {
  planOf: PlanOf;
  config: Pick<Config, 'KNOWLEDGE_STORAGE_LIMIT_BYTES'>;
}): StorageLimitOf {
  return async (ownerId) => {
    const plan = await deps.planOf(ownerId);
    const override = plan.tier === 'FREE' ? deps.config.KNOWLEDGE_STORAGE_LIMIT_BYTES : undefined;
    return {
      bytes: override ?? plan.limits.max_storage_mb * MB,
      message: storageFullMessage(plan.limits.max_storage_mb),
    };
  };
}
