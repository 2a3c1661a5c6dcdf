/** Feedback given is remembered per message in this browser (spec §4), so the prompt stays hidden after a reload. */
const KEY = 'chatFeedback';
/** Older entries are dropped first, so the record cannot grow without bound. */
const MAX_ENTRIES = 500;

export type Rating = 'like' | 'dislike';

function read(): Record<string, Rating> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
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
      localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(entries.slice(-MAX_ENTRIES))));
    } catch {
      // Storage full or blocked: the feedback is sent all the same; only the memory is lost.
    }
  },
};
