import { CONVERSATION_PREFIX } from './options';

/**
 * The storage bridge (Kesher's addition). Browsers that block third-party storage deny the embed frame
 * its localStorage, and with it the stored conversation (spec §3). The embed then keeps it in the
 * customer's page instead, through widget.js: it asks once for a snapshot of its entries and then
 * sends each change. Only keys of stored conversations pass, only between widget.js and its own frame.
 * Its own module: the embed loads it only where the frame's storage is refused (storage-bridge.ts).
 */
export const STORAGE_MESSAGES = {
  request: 'KESHER_STORAGE_REQUEST',
  snapshot: 'KESHER_STORAGE_SNAPSHOT',
  set: 'KESHER_STORAGE_SET',
  remove: 'KESHER_STORAGE_REMOVE',
} as const;

export type StorageMessage =
  | { type: typeof STORAGE_MESSAGES.request }
  | { type: typeof STORAGE_MESSAGES.snapshot; entries: Record<string, string> }
  | { type: typeof STORAGE_MESSAGES.set; key: string; value: string }
  | { type: typeof STORAGE_MESSAGES.remove; key: string };

const bridgedKey = (key: unknown): key is string =>
  typeof key === 'string' && key.startsWith(CONVERSATION_PREFIX) && key.length <= 200;

export function readStorageMessage(data: unknown): StorageMessage | null {
  if (!data || typeof data !== 'object') return null;
  const message = data as Record<string, unknown>;
  switch (message.type) {
    case STORAGE_MESSAGES.request:
      return { type: STORAGE_MESSAGES.request };
    case STORAGE_MESSAGES.set:
      return bridgedKey(message.key) && typeof message.value === 'string'
        ? { type: STORAGE_MESSAGES.set, key: message.key, value: message.value }
        : null;
    case STORAGE_MESSAGES.remove:
      return bridgedKey(message.key) ? { type: STORAGE_MESSAGES.remove, key: message.key } : null;
    case STORAGE_MESSAGES.snapshot: {
      if (!message.entries || typeof message.entries !== 'object') return null;
      const entries: Record<string, string> = {};
      for (const [key, value] of Object.entries(message.entries as Record<string, unknown>))
        if (bridgedKey(key) && typeof value === 'string') entries[key] = value;
      return { type: STORAGE_MESSAGES.snapshot, entries };
    }
    default:
      return null;
  }
}
