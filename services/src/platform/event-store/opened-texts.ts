/**
 * Personal texts this process opened lately, by the subject key they were sealed under and their sealed
 * form. A conversation's messages are opened on every read of its stream — on the API and in the worker at
 * every turn, and by each read model that takes them — so a long conversation opened hundreds of the same
 * texts again each turn.
 *
 * The codec (personal-data.codec.ts) serves a text from here only while its subject's key is live in the
 * process's key cache: an erased subject, or one whose key's trust ran out, is opened (and so read as
 * erased) afresh. An erasure heard of drops the subject's texts at once, so none is kept in memory after
 * it. Kept per subject, least recently used subject first out, at most `maxChars` characters in all
 * (sealed forms counted too).
 */
export function createOpenedTexts(options: { maxChars?: number } = {}) {
  const maxChars = options.maxChars ?? 4_000_000;
  // A Map keeps insertion order: a subject moved to the end on each use makes the first the least recent.
  const bySubject = new Map<string, { texts: Map<string, string>; chars: number }>();
  let chars = 0;

  function touch(keyId: string) {
    const entry = bySubject.get(keyId);
    if (entry) {
      bySubject.delete(keyId);
      bySubject.set(keyId, entry);
    }
    return entry;
  }

  function forget(keyId: string) {
    const entry = bySubject.get(keyId);
    if (!entry) return;
    bySubject.delete(keyId);
    chars -= entry.chars;
  }

  return {
    get(keyId: string, sealed: string): string | undefined {
      return touch(keyId)?.texts.get(sealed);
    },

    set(keyId: string, sealed: string, text: string) {
      let entry = touch(keyId);
      if (!entry) {
        entry = { texts: new Map(), chars: 0 };
        bySubject.set(keyId, entry);
      }
      if (entry.texts.has(sealed)) return;
      entry.texts.set(sealed, text);
      entry.chars += sealed.length + text.length;
      chars += sealed.length + text.length;
      for (const [oldest] of bySubject) {
        if (chars <= maxChars) break;
        forget(oldest);
      }
    },

    /** The subjects erased: their texts go now. */
    forget(keyIds: readonly string[] | 'all') {
      if (keyIds === 'all') {
        bySubject.clear();
        chars = 0;
      } else for (const keyId of keyIds) forget(keyId);
    },

    /** Characters kept now (tests). */
    size: () => chars,
  };
}
export type OpenedTexts = ReturnType<typeof createOpenedTexts>;
