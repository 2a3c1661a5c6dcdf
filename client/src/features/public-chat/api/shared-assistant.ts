import { useEffect, useState } from 'react';
import { api } from '@/lib/api-client';

/**
 * What a visitor holding a share link may see of an assistant (no sign-in). The visitor pages do not
 * load zod or the query cache, so the shape is checked by hand here.
 */
export interface SharedAssistant {
  id: number;
  name: string;
  description: string;
  avatar_url: string | null;
  /** The external id (asst_…) the visitor's runs are started with. */
  openai_assistant_id: string | null;
}

/** The fields the visitor pages use, read without zod (it stays out of their bundle); null for any other shape. */
export function readSharedAssistant(value: unknown): SharedAssistant | null {
  const v = (value ?? {}) as Record<string, unknown>;
  if (typeof v.id !== 'number' || typeof v.name !== 'string') return null;
  return {
    id: v.id,
    name: v.name,
    description: typeof v.description === 'string' ? v.description : '',
    avatar_url: typeof v.avatar_url === 'string' ? v.avatar_url : null,
    openai_assistant_id: typeof v.openai_assistant_id === 'string' ? v.openai_assistant_id : null,
  };
}

function asSharedAssistant(value: unknown): SharedAssistant {
  const assistant = readSharedAssistant(value);
  if (!assistant) throw new Error('unexpected shared assistant shape');
  return assistant;
}

export const getSharedAssistant = async (token: string, signal?: AbortSignal) =>
  asSharedAssistant(await api.get<unknown>(`/assistants/shared/${encodeURIComponent(token)}`, null, { signal }));

export type SharedAssistantState =
  { status: 'loading' } | { status: 'ready'; assistant: SharedAssistant } | { status: 'error'; error: unknown };

/** Resolves a share token; `retry()` asks again (the embed page's error state offers it). */
export function useSharedAssistant(token: string): SharedAssistantState & { retry: () => void } {
  const [state, setState] = useState<SharedAssistantState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    getSharedAssistant(token, controller.signal).then(
      (assistant) => setState({ status: 'ready', assistant }),
      (error: unknown) => !controller.signal.aborted && setState({ status: 'error', error }),
    );
    return () => controller.abort();
  }, [token, attempt]);
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}
