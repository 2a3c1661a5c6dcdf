import { z } from 'zod';

/**
 * The plan's knowledge storage (max_storage_mb per owner), race-free: an upload holds its bytes on the
 * owner's `storageholds-…` stream before its file is recorded, and lets go once the knowledge read model
 * counts the file. Holds are decided on that stream with its expected revision, so uploads at once see
 * each other's bytes even before any of them is in the read model.
 */
export const StorageHeldSchema = z.object({
  ownerId: z.string().min(1),
  fileId: z.string().min(1),
  bytes: z.number().int().nonnegative(),
});
export type StorageHeld = z.infer<typeof StorageHeldSchema>;

/** Holds let go: their files are counted by the read model now, or never came to be, or were deleted. */
export const StorageReleasedSchema = z.object({
  ownerId: z.string().min(1),
  fileIds: z.array(z.string().min(1)).min(1),
});
export type StorageReleased = z.infer<typeof StorageReleasedSchema>;
