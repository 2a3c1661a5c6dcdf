import type { ErrorBody } from '@kesher/contracts';

/**
 * The spec's response catalogue (§8) as codes; the texts live in the `errors` i18n namespace so they
 * can be shown in Hebrew too. `detail` keeps what the server said, for screens that show it (e.g. a
 * 409 on registration says the address is taken).
 */
export type ApiErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'tooManyRequests'
  | 'server'
  | 'network'
  | 'offline'
  | 'timeout'
  | 'invalidUrl'
  | 'unexpected';

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    readonly status: number | null,
    readonly detail: string | null = null,
  ) {
    super(detail ?? code);
    this.name = 'ApiError';
  }
}

export function codeForStatus(status: number): ApiErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'notFound';
  if (status === 429) return 'tooManyRequests';
  if (status >= 500) return 'server';
  return 'unexpected';
}

/** A validation detail is a list of items with msg; the spec joins them with '. '. */
export function detailText(body: unknown): string | null {
  const detail = (body as Partial<ErrorBody> | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map((item) => item.msg).join('. ') || null;
  return null;
}

/**
 * What a screen shows for an error: the catalogue text for the statuses the catalogue names, the
 * server's own words for other refusals (400/409/422: they say what to fix), else the fallback.
 */
export function errorMessage(error: unknown, t: (key: string) => string, fallbackKey = 'errors:unexpected'): string {
  if (!(error instanceof ApiError)) return t(fallbackKey);
  if (error.code === 'unexpected') return error.detail ?? t(fallbackKey);
  return t(`errors:${error.code}`);
}
