import { localStore } from '@/lib/safe-storage';
/**
 * The assistants a visitor reached through share links, kept in local storage (spec §2: the public chat
 * reads the assistant from local storage). Besides what the page shows, it keeps what chatting needs:
 * the share token (a public thread starts only with it) and the `openai_assistant_id` runs are started
 * with. One entry per assistant, so two share links opened in turn both keep working.
 */
const KEY = 'sharedAssistants';
/** Only the most recent assistants are kept. */
const MAX_ASSISTANTS = 20;

export interface StoredSharedAssistant {
  id: number;
  name: string;
  description: string;
  openai_assistant_id?: string | null;
  shareToken?: string | null;
}

function readAll(): StoredSharedAssistant[] {
  try {
    const value: unknown = JSON.parse(localStore.getItem(KEY) ?? '[]');
    return Array.isArray(value)
      ? value.filter((a): a is StoredSharedAssistant => typeof a?.id === 'number' && typeof a?.name === 'string')
      : [];
  } catch {
    return [];
  }
}

export const sharedAssistantStore = {
  save(a: StoredSharedAssistant) {
    const entry: StoredSharedAssistant = {
      id: a.id,
      name: a.name,
      description: a.description,
      openai_assistant_id: a.openai_assistant_id ?? null,
      shareToken: a.shareToken ?? null,
    };
    const rest = readAll().filter((other) => other.id !== a.id);
    try {
      localStore.setItem(KEY, JSON.stringify([entry, ...rest].slice(0, MAX_ASSISTANTS)));
    } catch {
      // Storage blocked: the chat falls back to the stub assistant (spec §2).
    }
  },
  load(id: string | undefined): StoredSharedAssistant | null {
    return readAll().find((a) => String(a.id) === id) ?? null;
  },
};
