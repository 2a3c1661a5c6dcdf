const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');

/**
 * Text from a channel as it can be stored: Postgres refuses a NUL and an unpaired surrogate, and the
 * webhook's raw body never passes the API's safe-text check (it is read as bytes for the signature).
 */
export const cleanText = (text: string, max: number) =>
  wellFormed(wellFormed(text).replaceAll('\u0000', '').slice(0, max));
