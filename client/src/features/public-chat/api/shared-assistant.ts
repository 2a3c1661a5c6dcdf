import { useEffect, useState } from 'react';
import { api } from '@/lib/api-client';
import { readSharedAssistant, type SharedAssistant } from './shared-assistant-shape';

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
