import { readStorageMessage, STORAGE_MESSAGES } from '../../../widget/storage-messages';
import { memoryStorage } from '@/lib/safe-storage';
import { browserStorage } from './conversation-store';
import { isFramed } from './parent-window';

/** How long the embed waits for widget.js to answer before keeping the conversation in memory only. */
export const BRIDGE_TIMEOUT_MS = 1500;

/**
 * Where the stored conversation lives: this frame's localStorage when the browser allows it; otherwise
 * (third-party storage blocked) the customer's page, through widget.js — a snapshot first, then every
 * change, sent only to the origin that answered; otherwise memory (nothing survives a reload).
 */
export function openConversationStorage(win: Window = window, timeoutMs = BRIDGE_TIMEOUT_MS): Promise<Storage> {
  const own = browserStorage();
  if (own) return Promise.resolve(own);
  if (!isFramed(win)) return Promise.resolve(memoryStorage());
  return new Promise((resolve) => {
    const done = (storage: Storage) => {
      clearTimeout(timer);
      win.removeEventListener('message', onMessage);
      resolve(storage);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.source !== win.parent) return;
      const message = readStorageMessage(event.data);
      if (message?.type !== STORAGE_MESSAGES.snapshot) return;
      const origin = event.origin;
      done(
        memoryStorage(message.entries, (key, value) => {
          try {
            win.parent.postMessage(
              value === null ? { type: STORAGE_MESSAGES.remove, key } : { type: STORAGE_MESSAGES.set, key, value },
              origin,
            );
          } catch {
            // The page went away: this visit's conversation stays in memory.
          }
        }),
      );
    };
    const timer = setTimeout(() => done(memoryStorage()), timeoutMs);
    win.addEventListener('message', onMessage);
    try {
      win.parent.postMessage({ type: STORAGE_MESSAGES.request }, '*');
    } catch {
      done(memoryStorage());
    }
  });
}
