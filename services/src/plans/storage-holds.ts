import { streamIds } from '@kesher/contracts';
import {
  StaleStorageCountError,
  storageHoldsDecider,
  type StorageHoldsState,
} from '../domain/storage-holds/storage-holds.decider.js';
import { aggregateStream } from '../platform/commands/aggregate-stream.js';
import type { CommandContext, CommandHandler } from '../platform/commands/command-handler.js';
import { DomainError } from '../platform/commands/decider.js';
import type { EventStore } from '../platform/event-store/event-store.port.js';
import { knowledgeFileAlive } from './plan-allowances.js';

/** What storage holds read of the knowledge read model (port; wired to its queries at the root). */
export interface StorageCounts {
  /** Bytes of the owner's files as the read model lists them. */
  storageUsed(ownerId: string): Promise<number>;
  /** Whether the read model lists the file (so storageUsed counts it, or knows it is not stored). */
  isListed(ownerId: string, fileId: string): Promise<boolean>;
}

/**
 * The plan's max_storage_mb, held race-free (the decider, domain/storage-holds, says how). An upload holds
 * its bytes before its file is recorded and releases them once the read model lists the file.
 */
export interface StorageHolds {
  /** Holds `bytes` for `fileId`; throws DomainError('forbidden', refusal) when they do not fit in `limit`. */
  hold(
    context: CommandContext,
    request: { ownerId: string; fileId: string; bytes: number; limit: number; refusal: string },
  ): Promise<void>;
  release(context: CommandContext, ownerId: string, fileIds: readonly string[]): Promise<void>;
}

/** Uploads at once conflict on the owner's stream and count again: more tries than a handle's default. */
const COUNT_ATTEMPTS = 24;

export function createStorageHolds(deps: {
  handle: CommandHandler;
  eventStore: EventStore;
  counts: StorageCounts;
}): StorageHolds {
  const load = async (ownerId: string) =>
    (await aggregateStream(deps.eventStore, storageHoldsDecider, streamIds.storageHolds(ownerId))).state;

  /**
   * The read model's count, read after `state` was loaded. Which holds it lists is asked before its bytes
   * are summed: a file listed by then is in the sum; one listed only later is counted by its hold.
   */
  async function count(ownerId: string, state: StorageHoldsState) {
    const seen = state.held.map((hold) => hold.fileId);
    const listed = await Promise.all(seen.map((fileId) => deps.counts.isListed(ownerId, fileId)));
    const landed = seen.filter((_, index) => listed[index]);
    return { seen, landed, bytes: await deps.counts.storageUsed(ownerId) };
  }

  /** The hold, decided on the owner's holds with the read model counted after them, afresh at each attempt (a count gone stale refuses: counted again). */
  async function take(context: CommandContext, request: Parameters<StorageHolds['hold']>[1]) {
    await deps.handle(
      storageHoldsDecider,
      streamIds.storageHolds(request.ownerId),
      async (state) =>
        storageHoldsDecider.decide(
          { type: 'HoldStorage', data: { ...request, count: await count(request.ownerId, state) } },
          state,
        ),
      context,
      { maxAttempts: COUNT_ATTEMPTS, retryOn: (error) => error instanceof StaleStorageCountError },
    );
  }

  /**
   * Frees the holds of uploads that are gone: their file never came to be (its stream is closed here, so an
   * upload still on its way fails and tries again, as with file slots) or was deleted. Returns how many.
   */
  async function reclaim(context: CommandContext, ownerId: string, except: string): Promise<number> {
    const state = await load(ownerId);
    const candidates = state.held.map((hold) => hold.fileId).filter((fileId) => fileId !== except);
    const alive = await Promise.all(candidates.map((fileId) => knowledgeFileAlive(deps.eventStore, fileId)));
    const dead = candidates.filter((_, index) => !alive[index]);
    if (dead.length > 0) await holds.release(context, ownerId, dead);
    return dead.length;
  }

  const holds: StorageHolds = {
    async hold(context, request) {
      try {
        await take(context, request);
      } catch (error) {
        if (!(error instanceof DomainError && error.kind === 'forbidden')) throw error;
        // Once more even when nothing was reclaimed here: storage given back meanwhile made room as well.
        await reclaim(context, request.ownerId, request.fileId);
        await take(context, request);
      }
    },

    async release(context, ownerId, fileIds) {
      if (fileIds.length === 0) return;
      await deps.handle(
        storageHoldsDecider,
        streamIds.storageHolds(ownerId),
        { type: 'ReleaseStorage', data: { ownerId, fileIds } },
        context,
        { maxAttempts: COUNT_ATTEMPTS },
      );
    },
  };
  return holds;
}
