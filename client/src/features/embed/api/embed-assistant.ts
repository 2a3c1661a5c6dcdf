import { chatMessages } from '@kesher/contracts/rules/chat';
import { readSharedAssistant, type SharedAssistant } from '@/features/public-chat/api/shared-assistant-shape';
import { API_BASE, DEFAULT_TIMEOUT_MS } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error-base';

/**
 * Why the embed page could not start (spec part 2 §8 "Embedded init"): no token in the address, an
 * unknown link (404, with a hint to get a new one), a server failure, no connection, or the server's
 * own words — whose `detail` may be a string or an object with message, error and suggestion.
 */
export type EmbedInitProblem =
  | { kind: 'noToken' }
  | { kind: 'notFound' }
  | { kind: 'server' }
  | { kind: 'connection' }
  | { kind: 'detail'; message: string; suggestion: string | null }
  | { kind: 'unknown' };

export class EmbedInitError extends Error {
  constructor(readonly problem: EmbedInitProblem) {
    super(problem.kind);
    this.name = 'EmbedInitError';
  }
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** Reads a failed answer: `status` null means no answer at all (network). */
export function describeInitFailure(status: number | null, body: unknown): EmbedInitProblem {
  if (status === null) return { kind: 'connection' };
  if (status === 404) return { kind: 'notFound' };
  const detail = body && typeof body === 'object' ? (body as { detail?: unknown }).detail : undefined;
  if (detail && typeof detail === 'object' && !Array.isArray(detail)) {
    const d = detail as Record<string, unknown>;
    const message = text(d.message) ?? text(d.error);
    if (message) return { kind: 'detail', message, suggestion: text(d.suggestion) };
  }
  if (status >= 500) return { kind: 'server' };
  const plain = text(detail);
  return plain ? { kind: 'detail', message: plain, suggestion: null } : { kind: 'unknown' };
}

/** The same reading for a failure of the API module (thread calls during start-up). */
export function describeApiFailure(error: unknown): EmbedInitProblem {
  if (error instanceof EmbedInitError) return error.problem;
  if (!(error instanceof ApiError)) return { kind: 'unknown' };
  if (error.code === 'network' || error.code === 'timeout' || error.code === 'offline') return { kind: 'connection' };
  // A revoked or replaced link ends the embedded chat just like an unknown one.
  if (error.status === 404 || error.detail === chatMessages.invalidShareLink) return { kind: 'notFound' };
  return describeInitFailure(error.status, { detail: error.detail });
}

function asAssistant(value: unknown): SharedAssistant {
  const assistant = readSharedAssistant(value);
  if (!assistant) throw new EmbedInitError({ kind: 'unknown' });
  return assistant;
}

/**
 * GET /assistants/shared/{token}. Read here rather than through the API module because the embed's
 * error panel needs the server's `detail` object (message, suggestion), which the module reduces to text.
 */
export async function getEmbedAssistant(shareToken: string, signal?: AbortSignal): Promise<SharedAssistant> {
  const timeout = AbortSignal.timeout(DEFAULT_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/assistants/shared/${encodeURIComponent(shareToken)}`, {
      headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      credentials: 'omit',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new EmbedInitError({ kind: 'connection' });
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) throw new EmbedInitError(describeInitFailure(response.status, body));
  return asAssistant(body);
}
