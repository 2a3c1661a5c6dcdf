import { ApiError } from './api-error-base';
import type { Language } from './language';
import { knowsServerText, serverText } from './server-texts';

// The class and the answer readers live in api-error-base.ts (no texts); this module adds the translations.
export { ApiError, type ApiErrorCode, codeForStatus, detailCodes, detailItems, detailText } from './api-error-base';

/**
 * What the server said, in the page's language (lib/server-texts.ts): each item of a validation list
 * on its own, then joined as the spec joins them. Null when the server said nothing.
 */
export function localizedDetail(error: unknown, language?: Language): string | null {
  if (!(error instanceof ApiError) || !error.detail) return null;
  const parts = error.items && error.items.length > 0 ? error.items : [error.detail];
  return parts.map((part, i) => serverText(part, language, error.codes?.[i])).join('. ');
}

/**
 * What a screen shows for an error: the catalogue text for the statuses the catalogue names, the
 * server's own words for other refusals (400/409/422: they say what to fix) and for a 403 whose words are
 * the catalogue's (a plan's limit), else the fallback.
 */
export function errorMessage(error: unknown, t: (key: string) => string, fallbackKey = 'errors:unexpected'): string {
  if (!(error instanceof ApiError)) return t(fallbackKey);
  if (error.code === 'unexpected') return localizedDetail(error) ?? t(fallbackKey);
  // A plan limit is a 403 that says which limit and how to lift it: a catalogue text is shown as said.
  if (error.code === 'forbidden' && error.detail && knowsServerText(error.detail, error.codes?.[0]))
    return localizedDetail(error)!;
  return t(`errors:${error.code}`);
}
