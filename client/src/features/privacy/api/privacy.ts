import { api, API_BASE } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { tokenStorage } from '@/lib/token-storage';

/** GET /privacy/retention: how long Kesher keeps what (the spec's periods unless the deployment set others). */
export interface Retention {
  conversation_days: number;
  analytics_months: number;
  security_log_months: number;
  payment_years: number;
  inactive_account_months: number;
}

export interface SecurityLogEntry {
  id: string;
  kind:
    | 'data_exported'
    | 'conversation_erased'
    | 'channel_contact_erased'
    | 'retention_run'
    | 'inactivity_warning'
    | string;
  actor: string;
  detail: Record<string, string | number | null>;
  at: string;
}

export const getRetention = (signal?: AbortSignal) => api.get<Retention>('/privacy/retention', null, { signal });

export const getSecurityLog = async (signal?: AbortSignal) =>
  (await api.get<{ entries: SecurityLogEntry[] }>('/auth/me/security-log', null, { signal })).entries;

/** GET /assistants/{id}/threads/kept-until: thread id → the day it is erased (ISO). */
export async function getKeptUntil(assistantId: number | string, signal?: AbortSignal): Promise<Map<string, string>> {
  const body = await api.get<{ threads: { thread_id: string; kept_until: string }[] }>(
    `/assistants/${encodeURIComponent(String(assistantId))}/threads/kept-until`,
    null,
    { signal },
  );
  return new Map(body.threads.map((thread) => [thread.thread_id, thread.kept_until]));
}

/** DELETE /threads/public/{id}: the visitor's own conversation, proven by their session token. */
export const deleteVisitorConversation = (threadId: string, sessionToken: string) =>
  api.delete(`/threads/public/${encodeURIComponent(threadId)}?session_token=${encodeURIComponent(sessionToken)}`);

/**
 * GET /auth/me/export: the owner's data as a zip, saved through a temporary link. Not through `api`: the
 * answer is a file, not JSON.
 */
export async function downloadMyData(): Promise<void> {
  const token = tokenStorage.get();
  const response = await fetch(`${API_BASE}/auth/me/export`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'omit',
  });
  if (!response.ok) throw new ApiError(response.status === 401 ? 'unauthorized' : 'unexpected', response.status, null);
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'kesher-my-data.zip';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
