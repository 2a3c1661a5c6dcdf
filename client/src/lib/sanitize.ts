/**
 * Spec §5: every string field of an outgoing JSON body loses script and iframe blocks, `javascript:`
 * and inline `on…=` handlers, and is trimmed. The server validates anyway; this keeps pasted markup
 * from ever being stored as an assistant's text.
 */
export function cleanString(value: string): string {
  return value
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<iframe\b[^>]*>[\s\S]*?<\/iframe\s*>/gi, '')
    .replace(/<(script|iframe)\b[^>]*\/?>/gi, '')
    .replace(/javascript\s*:/gi, '')
    .replace(/\bon[a-z]+\s*=/gi, '')
    .trim();
}

/** Cleans every string inside a JSON-able value, at any depth. */
export function cleanBody<T>(value: T): T {
  if (typeof value === 'string') return cleanString(value) as T;
  if (Array.isArray(value)) return value.map(cleanBody) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanBody(v)])) as T;
  }
  return value;
}

/** Spec §5: an absolute request URL must be http or https. */
export function isAllowedRequestUrl(url: string): boolean {
  if (!/^[a-z][a-z\d+.-]*:/i.test(url)) return true; // relative: same origin
  return /^https?:\/\//i.test(url);
}
