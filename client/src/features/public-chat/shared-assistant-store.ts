/** The public chat reads the assistant the share link resolved to from local storage (spec §2). */
const KEY = 'sharedAssistant';

export interface StoredSharedAssistant {
  id: number;
  name: string;
  description: string;
}

export const sharedAssistantStore = {
  save: (a: StoredSharedAssistant) => localStorage.setItem(KEY, JSON.stringify({ id: a.id, name: a.name, description: a.description })),
  load(id: string | undefined): StoredSharedAssistant | null {
    try {
      const value = JSON.parse(localStorage.getItem(KEY) ?? 'null') as StoredSharedAssistant | null;
      return value && String(value.id) === id ? value : null;
    } catch {
      return null;
    }
  },
};
