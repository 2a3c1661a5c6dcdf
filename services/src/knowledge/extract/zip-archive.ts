import type { UnpackBudget } from './unpack-budget.js';

/**
 * A zip read from its central directory, one entry at a time, each inflated against the file's
 * UnpackBudget. The sizes a zip declares are only a hint for refusing early: a bomb may declare 1 KB and
 * inflate to gigabytes, so the limit is enforced by zlib on the real output. (fflate's unzip sized its
 * output from the declared size and checked the limit against it, which is how a 190 MB part got in.)
 */
export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  /** As declared; trusted only to refuse early. */
  size: number;
  headerOffset: number;
}

export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_MARKER = 0xffffffff;

export function listZipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is the last 22 bytes plus a comment of up to 64 KiB.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new ZipFormatError('no end of central directory');
  const count = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  let at = view.getUint32(end + 16, true);
  if (directorySize === ZIP64_MARKER || at === ZIP64_MARKER || at + directorySize > end)
    throw new ZipFormatError('central directory out of range (or zip64)');

  const decoder = new TextDecoder('utf-8');
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== DIRECTORY_ENTRY)
      throw new ZipFormatError('bad central directory entry');
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const entry: ZipEntry = {
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      headerOffset: view.getUint32(at + 42, true),
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    };
    if (entry.compressedSize === ZIP64_MARKER || entry.size === ZIP64_MARKER || entry.headerOffset === ZIP64_MARKER)
      throw new ZipFormatError('zip64 entries are not read');
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The entry's bytes, inflated within the budget (throws "too large when unpacked" at its limit). */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry, budget: UnpackBudget): Uint8Array {
  if (entry.flags & 0x1) throw new ZipFormatError(`${entry.name} is encrypted`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = entry.headerOffset;
  if (header + 30 > bytes.length || view.getUint32(header, true) !== LOCAL_HEADER)
    throw new ZipFormatError(`${entry.name}: bad local header`);
  const start = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new ZipFormatError(`${entry.name}: truncated`);
  const data = bytes.subarray(start, end);
  // Refuse what says it is too big before spending any work on it.
  if (entry.size > budget.remaining) budget.take(entry.size);
  if (entry.method === 0) {
    budget.take(data.length);
    return data;
  }
  if (entry.method === 8) return budget.inflate(data, 'raw');
  throw new ZipFormatError(`${entry.name}: compression method ${entry.method} is not read`);
}
