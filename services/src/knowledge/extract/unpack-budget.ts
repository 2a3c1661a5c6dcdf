import { constants, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';
import { knowledgeLimits } from '../limits.js';
import { extractionErrors } from './extraction-error.js';

export type CompressedFormat = 'raw' | 'zlib' | 'gzip';

const inflaters: Record<CompressedFormat, (data: Uint8Array, options: ZlibOptions) => Buffer> = {
  raw: inflateRawSync,
  zlib: inflateSync,
  gzip: gunzipSync,
};

/**
 * What one file may still unpack to, shared by every part or stream read from it. Each inflation is
 * given what is left as zlib's `maxOutputLength`, so zlib itself stops producing output at the limit:
 * a 200 MiB bomb costs 64 MiB of work and memory, never 200. Data that is unpacked by hand (a stored
 * zip entry, an LZW stream) is counted with `take` as it is produced.
 */
export class UnpackBudget {
  private used = 0;

  constructor(readonly limit: number = knowledgeLimits.maxUnpackedBytes) {}

  get remaining(): number {
    return Math.max(0, this.limit - this.used);
  }

  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw extractionErrors.unpackedTooLarge();
  }

  /**
   * Inflates `data`; throws "too large when unpacked" at the limit and lets zlib's errors for damaged data
   * through. `truncated: 'keep'` returns what a cut-off stream held instead of failing (as PDF readers do).
   */
  inflate(data: Uint8Array, format: CompressedFormat, options: { truncated?: 'fail' | 'keep' } = {}): Buffer {
    let output: Buffer;
    try {
      output = inflaters[format](data, {
        maxOutputLength: Math.max(1, this.remaining),
        ...(options.truncated === 'keep' ? { finishFlush: constants.Z_SYNC_FLUSH } : {}),
      });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw extractionErrors.unpackedTooLarge();
      throw error;
    }
    this.take(output.length);
    return output;
  }
}

const GZIP_MAGIC = [0x1f, 0x8b];

export const isGzip = (bytes: Uint8Array) => bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
