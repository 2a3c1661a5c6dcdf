import type { z } from 'zod';
import { ApiError, codeForStatus, detailCodes, detailItems, detailText } from './api-error-base';
import { cleanBody, isAllowedRequestUrl } from './sanitize';
import { tokenStorage } from './token-storage';

/** Spec §7 conventions: base path, 60 s default timeout, the XMLHttpRequest marker, no cookies. */
export const API_BASE = '/api/v1';
export const DEFAULT_TIMEOUT_MS = 60_000;

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/**
 * The transport only reports a 401 (after clearing the tokens, which is its job); what the app does
 * about it — the toast and the trip to /login — is wired in `app/provider.tsx`.
 */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export interface RequestOptions {
  body?: unknown;
  /** Multipart (FormData) or form-encoded (URLSearchParams) body; fetch sets the content type for each. */
  form?: FormData | URLSearchParams;
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Only for a call whose answer sets a cookie this browser must keep (the Drive link's binding to the
   * browser that starts it): same-origin. Every other call sends and keeps no cookies.
   */
  keepCookies?: boolean;
}

async function request<T>(
  method: string,
  path: string,
  schema: z.ZodType<T> | null,
  options: RequestOptions = {},
): Promise<T> {
  const url = /^[a-z][a-z\d+.-]*:/i.test(path) ? path : `${API_BASE}${path}`;
  if (!isAllowedRequestUrl(url)) throw new ApiError('invalidUrl', null, 'Invalid URL detected');
  if (method !== 'GET' && typeof navigator !== 'undefined' && navigator.onLine === false) {
    // Spec'd choice for the PWA: changes made offline fail at once with a clear message (not queued).
    throw new ApiError('offline', null);
  }

  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
  const token = tokenStorage.get();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(cleanBody(options.body));
  }

  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body,
      signal,
      credentials: options.keepCookies ? 'same-origin' : 'omit',
    });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError(timeout.aborted ? 'timeout' : 'network', null);
  }

  const text = await response.text().catch(() => '');
  let json: unknown = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (!response.ok) {
    if (response.status === 401) {
      tokenStorage.clear();
      for (const listener of unauthorizedListeners) listener();
    }
    throw new ApiError(
      codeForStatus(response.status),
      response.status,
      detailText(json),
      detailItems(json),
      detailCodes(json),
    );
  }
  if (!schema) return json as T;
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiError('unexpected', response.status, null);
  return parsed.data;
}

export const api = {
  get: <T>(path: string, schema: z.ZodType<T> | null, options?: RequestOptions) =>
    request('GET', path, schema, options),
  post: <T>(path: string, schema: z.ZodType<T> | null, options?: RequestOptions) =>
    request('POST', path, schema, options),
  patch: <T>(path: string, schema: z.ZodType<T> | null, options?: RequestOptions) =>
    request('PATCH', path, schema, options),
  put: <T>(path: string, schema: z.ZodType<T> | null, options?: RequestOptions) =>
    request('PUT', path, schema, options),
  delete: <T = unknown>(path: string, schema: z.ZodType<T> | null = null, options?: RequestOptions) =>
    request('DELETE', path, schema, options),
};
