/**
 * Text Kesher can store: no NUL character and no unpaired UTF-16 surrogate. Postgres refuses both (in
 * text and in jsonb), so such input used to reach the database and fail there as a 500. The API refuses
 * it up front, naming the field, for every body, query and path of every route.
 */
export const unsafeTextMessage =
  'This text contains a character that cannot be stored (a NUL or an unpaired surrogate).';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isSafeText = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

/**
 * The path (keys and indexes) of the first string in `value` — a value or an object key — that is not
 * safe text; undefined when every string is. Walks with its own stack: a body nested a million levels
 * deep must not overflow the call stack.
 */
export function findUnsafeText(value: unknown): (string | number)[] | undefined {
  // Each entry points at its parent: the path is built only for the one string found (a copied path per
  // entry would cost the square of the depth).
  interface Visit {
    value: unknown;
    key?: string | number;
    parent?: Visit;
  }
  const pathOf = (visit: Visit, last?: string) => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.push(at.key!);
    return path.reverse();
  };
  const stack: Visit[] = [{ value }];
  while (stack.length) {
    const visit = stack.pop()!;
    const item = visit.value;
    if (typeof item === 'string') {
      if (!isSafeText(item)) return pathOf(visit);
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], key: i, parent: visit });
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      for (const [key] of entries) if (!isSafeText(key)) return pathOf(visit, key);
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ value: entries[i]![1], key: entries[i]![0], parent: visit });
    }
  }
  return undefined;
}
