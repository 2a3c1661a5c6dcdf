import type { ErrorBody } from '@kesher/contracts';
import type { TextCode } from './server-texts';

/*
 * ApiError and the reading of an error answer, without the texts that translate it (api-error.ts adds
 * those). The transport, the chat calls and the embed page import this module, so the embed's first load
 * does not carry server-texts.ts (every catalogue text in two languages): it loads when a refusal is shown.
 */

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
    /** A validation answer's items (each a catalogue text), which `detail` joins with '. '. */
    readonly items: readonly string[] | null = null,
    /** The code the server sent beside each text (the detail, or each item), by which it is translated. */
    readonly codes: readonly (TextCode | null)[] | null = null,
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
  const items = detailItems(body);
  return items ? items.join('. ') || null : null;
}

/** The detail as its separate texts: one for a plain detail, one per item of a validation list. */
export function detailItems(body: unknown): string[] | null {
  const detail = (body as Partial<ErrorBody> | null)?.detail;
  if (typeof detail === 'string') return [detail];
  if (Array.isArray(detail))
    return detail.map((item) => item.msg).filter((msg): msg is string => typeof msg === 'string');
  return null;
}

/** The code the server sent beside each text of `detailItems` (null where it sent none). */
export function detailCodes(body: unknown): (TextCode | null)[] | null {
  const answer = body as Partial<ErrorBody> | null;
  const coded = (part: Partial<TextCode> | null | undefined): TextCode | null =>
    typeof part?.code === 'string'
      ? { code: part.code, args: Array.isArray(part.args) ? part.args.map(String) : undefined }
      : null;
  if (typeof answer?.detail === 'string') return [coded(answer)];
  if (Array.isArray(answer?.detail)) return answer.detail.filter((item) => typeof item?.msg === 'string').map(coded);
  return null;
}
