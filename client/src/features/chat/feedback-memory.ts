import { localStore } from '@/lib/safe-storage';

/**
 * Feedback given is remembered per message in this browser (spec §4), so the prompt stays hidden after a
 * reload. Through the safe store: the public chat runs inside customers' pages too, where a browser that
 * blocks third-party storage refuses localStorage — then it is remembered for the visit only.
 */
const KEY = 'chatFeedback';
/** Older entries are dropped first, so the record cannot grow without bound. */
const MAX_ENTRIES = 500;

export type Rating = 'like' | 'dislike';

function read(): Record<string, Rating> {
  try {
    const value: unknown = JSON.parse(localStore.getItem(KEY) ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, Rating>) : {};
  } catch {
    return {};
  }
}

export const feedbackMemory = {
  get: (messageId: string): Rating | null => {
    const rating = read()[messageId];
    return rating === 'like' || rating === 'dislike' ? rating : null;
  },
  set(messageId: string, rating: Rating) {
    const all = read();
    delete all[messageId];
    all[messageId] = rating;
    const entries = Object.entries(all);
    try {
      localStore.setItem(KEY, JSON.stringify(Object.fromEntries(entries.slice(-MAX_ENTRIES))));
    } catch {
      // Storage full or blocked: the feedback is sent all the same; only the memory is lost.
    }
  },
};
