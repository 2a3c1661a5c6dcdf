import { describe, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import {
  StaleStorageCountError,
  storageHoldsDecider,
  type StorageCount,
  type StorageHoldsEvent,
} from './storage-holds.decider.js';

const spec = deciderSpec(storageHoldsDecider);
const KB = 1024;
const full = 'Your storage is full.';
const hold = (fileId: string, count: StorageCount, bytes = 25 * KB) => ({
  type: 'HoldStorage' as const,
  data: { ownerId: 'o1', fileId, bytes, limit: 60 * KB, refusal: full, count },
});
const held = (fileId: string, bytes = 25 * KB): StorageHoldsEvent => ({
  type: 'StorageHeld',
  data: { ownerId: 'o1', fileId, bytes },
});
const released = (...fileIds: string[]): StorageHoldsEvent => ({
  type: 'StorageReleased',
  data: { ownerId: 'o1', fileIds },
});
const nothingCounted: StorageCount = { bytes: 0, seen: [], landed: [] };

describe("storage holds (the plan's max_storage_mb)", () => {
  it('holds bytes while what is stored and held leaves room, once per file', () => {
    spec
      .given([])
      .when(hold('f1', nothingCounted))
      .then([held('f1')]);
    spec
      .given([held('f1')])
      .when(hold('f2', { bytes: 0, seen: ['f1'], landed: [] }))
      .then([held('f2')]);
    spec
      .given([held('f1')])
      .when(hold('f1', { bytes: 0, seen: ['f1'], landed: [] }))
      .then([]);
  });

  it("refuses bytes that held uploads not yet counted would push past the limit, with the plan's text", () => {
    spec
      .given([held('f1'), held('f2')])
      .when(hold('f3', { bytes: 0, seen: ['f1', 'f2'], landed: [] }))
      .thenThrows(DomainError, full);
    spec
      .given([])
      .when(hold('f3', { bytes: 50 * KB, seen: [], landed: [] }))
      .thenThrows(DomainError, full);
  });

  it('counts a hold whose file the read model counts only once, and lets go of it on the way', () => {
    spec
      .given([held('f1'), held('f2')])
      .when(hold('f3', { bytes: 25 * KB, seen: ['f1', 'f2'], landed: ['f1'] }, 10 * KB))
      .then([released('f1'), held('f3', 10 * KB)]);
  });

  it('asks for a new count when a hold it relied on was let go meanwhile (its file may be missing from the count)', () => {
    spec
      .given([held('f1'), released('f1')])
      .when(hold('f2', { bytes: 0, seen: ['f1'], landed: [] }))
      .thenThrows(StaleStorageCountError);
  });

  it('lets go of held files only', () => {
    spec
      .given([held('f1')])
      .when({ type: 'ReleaseStorage', data: { ownerId: 'o1', fileIds: ['f1', 'f1', 'never'] } })
      .then([released('f1')]);
    spec
      .given([held('f1'), released('f1')])
      .when({ type: 'ReleaseStorage', data: { ownerId: 'o1', fileIds: ['f1'] } })
      .then([]);
  });
});
