/** Business constants from the product spec (§9). */
export const limits = {
  textFieldWords: 1000,
  /**
   * The same fields by characters: the spec counts words only, so one "word" of 880 KB passed. 20 characters
   * per word is far above any language's average (Hebrew and English are around 5–6 with the space).
   */
  textFieldChars: 20_000,
  chatLimitDefault: 100,
  /**
   * Answered messages one visitor (a session, and separately an address) may get from one assistant per
   * UTC day, unless its owner set another figure (beyond the spec; issue 21 item 12): without it one
   * address spent a free plan's month in three minutes and every other visitor was refused until the 1st.
   */
  visitorDailyLimitDefault: 50,
  visitorDailyLimitMax: 10_000,
  messageMaxChars: 10_000,
  chatInputWords: 100,
  chatInputTokens: 400,
  feedbackCommentChars: 500,
} as const;

export const countWords = (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/u).length);

/** http(s) URL check used by the client and the server alike. */
export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    const web = url.protocol === 'http:' || url.protocol === 'https:';
    return web && (url.hostname.includes('.') || url.hostname === 'localhost');
  } catch {
    return false;
  }
}
