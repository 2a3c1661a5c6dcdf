/**
 * The browser's localStorage and sessionStorage as the visitor pages may meet them: inside a customer's
 * website with third-party storage blocked (Chrome Incognito, Brave, Safari, "block third-party
 * cookies"), merely reading `window.localStorage` throws ("Access is denied for this document"), and a
 * full storage throws on write. Everything in the client reads and writes through these instead: the
 * first refusal moves the store to memory for the rest of the visit, so a page never breaks over
 * storage — it only forgets on reload what the browser would not let it keep.
 */
/** A Storage over a Map; `onChange` hears every write (value null for a removal). */
export function memoryStorage(
  initial: Record<string, string> = {},
  onChange?: (key: string, value: string | null) => void,
): Storage {
  const data = new Map(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    key: (index) => [...data.keys()][index] ?? null,
    getItem: (key) => data.get(key) ?? null,
    setItem(key, value) {
      data.set(key, String(value));
      onChange?.(key, String(value));
    },
    removeItem(key) {
      data.delete(key);
      onChange?.(key, null);
    },
    clear() {
      for (const key of [...data.keys()]) this.removeItem(key);
    },
  };
}

/** A Storage that uses `open()`'s while the browser allows it, and memory from the first refusal on. */
export function createSafeStorage(open: () => Storage | undefined): Storage & { readonly inMemory: boolean } {
  const memory = memoryStorage();
  /** undefined: not tried yet; null: refused (memory from now on). */
  let real: Storage | null | undefined;
  const backing = (): Storage => {
    if (real === undefined) {
      try {
        real = open() ?? null;
        real?.getItem('kesher:probe'); // some browsers hand out the object and refuse its use
      } catch {
        real = null;
      }
    }
    return real ?? memory;
  };
  const attempt = <T>(use: (storage: Storage) => T): T => {
    const storage = backing();
    if (storage === memory) return use(memory);
    try {
      return use(storage);
    } catch {
      real = null;
      return use(memory);
    }
  };
  return {
    get inMemory() {
      return backing() === memory;
    },
    get length() {
      return attempt((s) => s.length);
    },
    key: (index) => attempt((s) => s.key(index)),
    getItem: (key) => attempt((s) => s.getItem(key)),
    setItem: (key, value) => attempt((s) => s.setItem(key, value)),
    removeItem: (key) => attempt((s) => s.removeItem(key)),
    clear: () => attempt((s) => s.clear()),
  };
}

export const localStore = createSafeStorage(() => globalThis.localStorage);
export const sessionStore = createSafeStorage(() => globalThis.sessionStorage);
