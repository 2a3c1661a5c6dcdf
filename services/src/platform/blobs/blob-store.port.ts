/**
 * Content-addressed storage for large payloads (file bytes, extracted text, chunk lists): events carry
 * only the sha-256 key. Putting the same bytes twice stores them once.
 */
export interface BlobStore {
  put(bytes: Uint8Array): Promise<{ sha256: string; size: number }>;
  get(sha256: string): Promise<Buffer | undefined>;
}
