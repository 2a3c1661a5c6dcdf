import { createHash } from 'node:crypto';

/**
 * Content-addressed storage for large payloads (file bytes, extracted text, chunk lists): events carry
 * only the sha-256 key. Putting the same bytes twice stores them once.
 *
 * Blobs are reference-counted by *holder* (a knowledge file's id): `put` records that its holder refers
 * to the bytes, `release` forgets every reference of a holder and deletes the blobs nobody refers to any
 * more. Deleting a file thereby frees its bytes, while the same bytes uploaded for another file — even
 * at the same moment — stay. A blob put without a holder is never collected.
 */
export interface BlobStore {
  put(bytes: Uint8Array, options?: { holder?: string }): Promise<{ sha256: string; size: number }>;
  get(sha256: string): Promise<Buffer | undefined>;
  /** Drops `holder`'s references; blobs left without any are deleted. Idempotent. */
  release(holder: string): Promise<void>;
}

/** The key a blob store gives `bytes`. */
export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const HASH_SLICE_BYTES = 1024 * 1024;

/**
 * The same key, hashed a mebibyte at a time with the event loop free between: hashing a 20 MB upload at
 * once holds the API's thread for tens of milliseconds on a busy machine, and every request with it.
 */
export async function hashInSlices(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  for (let offset = 0; offset < bytes.byteLength; offset += HASH_SLICE_BYTES) {
    if (offset > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    hash.update(bytes.subarray(offset, offset + HASH_SLICE_BYTES));
  }
  return hash.digest('hex');
}

/** A blob store whose every put is held by `holder` (what a file's ingestion stores is held by that file). */
export const heldBy = (blobs: BlobStore, holder: string): Pick<BlobStore, 'get' | 'put'> => ({
  get: (sha256) => blobs.get(sha256),
  put: (bytes) => blobs.put(bytes, { holder }),
});
