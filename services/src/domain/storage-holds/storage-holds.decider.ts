import { DomainError, type Decider, type EventOf } from '../../platform/commands/decider.js';

/**
 * The plan's knowledge storage (max_storage_mb per owner), race-free, the way file and assistant slots are
 * held (plans/plan-allowances.ts). The knowledge read model counts an owner's stored bytes, but it lags the
 * log: five uploads at once each saw the same free space, and five 25 KB files went into 60 KB. So each
 * upload first holds its bytes on the owner's `storageholds-…` stream, decided there with the stream's
 * expected revision — uploads at once conflict, reload and decide again, each seeing the others' holds —
 * and lets go once the read model counts its file.
 *
 * What is stored is then what the read model counts, plus the holds it does not count yet. The command
 * brings the read model's count, read *after* the holds it names (`seen`) were loaded, and which of them it
 * already counts (`landed`). A file of a hold let go since was counted before the hold went (an upload lets
 * go only once its file is counted), but perhaps after that reading: then the count is stale
 * (StaleStorageCountError) and is read again. A hold taken since is counted by its bytes, at worst twice.
 */
export interface StorageHoldsState {
  /** Uploads holding bytes, oldest first. */
  held: readonly { fileId: string; bytes: number }[];
}

/** The read model's side of a decision: see above. */
export interface StorageCount {
  /** Bytes the read model counts for the owner (its files as listed). */
  bytes: number;
  /** The holds loaded before that count was read. */
  seen: readonly string[];
  /** Those of them whose files it already counts. */
  landed: readonly string[];
}

export type StorageHoldsCommand =
  | {
      type: 'HoldStorage';
      data: { ownerId: string; fileId: string; bytes: number; limit: number; refusal: string; count: StorageCount };
    }
  /** Lets go of holds: their files are counted now, never came to be, or were deleted. */
  | { type: 'ReleaseStorage'; data: { ownerId: string; fileIds: readonly string[] } };

const storageHoldsEventTypes = ['StorageHeld', 'StorageReleased'] as const;
export type StorageHoldsEvent = EventOf<(typeof storageHoldsEventTypes)[number]>;

/** The read model was counted before a hold it relied on was let go: count again. */
export class StaleStorageCountError extends Error {
  constructor() {
    super('a storage hold was let go after the read model was counted');
    this.name = 'StaleStorageCountError';
  }
}

/** Bytes stored or held for the owner, by the count and the holds. */
export const storageInUse = (state: StorageHoldsState, count: Pick<StorageCount, 'bytes' | 'landed'>) =>
  count.bytes +
  state.held.filter((hold) => !count.landed.includes(hold.fileId)).reduce((sum, hold) => sum + hold.bytes, 0);

export const storageHoldsDecider: Decider<StorageHoldsState, StorageHoldsCommand, StorageHoldsEvent> = {
  eventTypes: storageHoldsEventTypes,
  initialState: () => ({ held: [] }),

  evolve(state, event) {
    switch (event.type) {
      case 'StorageHeld':
        return state.held.some((hold) => hold.fileId === event.data.fileId)
          ? state
          : { held: [...state.held, { fileId: event.data.fileId, bytes: event.data.bytes }] };
      case 'StorageReleased':
        return { held: state.held.filter((hold) => !event.data.fileIds.includes(hold.fileId)) };
      default:
        return state;
    }
  },

  decide(command, state) {
    const isHeld = (fileId: string) => state.held.some((hold) => hold.fileId === fileId);
    switch (command.type) {
      case 'HoldStorage': {
        const { ownerId, fileId, bytes, limit, refusal, count } = command.data;
        if (isHeld(fileId)) return [];
        if (count.seen.some((id) => !isHeld(id))) throw new StaleStorageCountError();
        if (storageInUse(state, count) + bytes > limit) throw new DomainError('forbidden', refusal);
        // Holds whose files the read model counts now are let go on the way (an upload that died after its file was recorded).
        const counted = count.landed.filter(isHeld);
        return [
          ...(counted.length > 0 ? [{ type: 'StorageReleased' as const, data: { ownerId, fileIds: counted } }] : []),
          { type: 'StorageHeld', data: { ownerId, fileId, bytes } },
        ];
      }
      case 'ReleaseStorage': {
        const { ownerId } = command.data;
        const held = [...new Set(command.data.fileIds)].filter(isHeld);
        return held.length > 0 ? [{ type: 'StorageReleased', data: { ownerId, fileIds: held } }] : [];
      }
    }
  },
};
