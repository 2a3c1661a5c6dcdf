import { describe, expect, it, vi } from 'vitest';
import { createSafeStorage } from './safe-storage';

/** What Chromium does in a third-party frame with third-party cookies blocked: reading the property throws. */
const denied = () => {
  throw new DOMException(
    "Failed to read the 'localStorage' property from 'Window': Access is denied for this document.",
    'SecurityError',
  );
};

describe('storage that survives a browser refusing it (issue 22 item 1)', () => {
  it('keeps values in memory for the visit when the storage cannot even be read', () => {
    const store = createSafeStorage(denied);
    expect(store.getItem('language')).toBeNull();
    store.setItem('language', 'en');
    expect(store.getItem('language')).toBe('en');
    expect(store.length).toBe(1);
    expect(store.inMemory).toBe(true);
    store.removeItem('language');
    expect(store.getItem('language')).toBeNull();
  });

  it('uses the browser storage while it is allowed, and memory from its first refusal on', () => {
    let refuse = false;
    const real = localStorage;
    const flaky = new Proxy(real, {
      get(target, name) {
        const value = Reflect.get(target, name, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (refuse) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const store = createSafeStorage(() => flaky);
    store.setItem('kept', 'yes');
    expect(real.getItem('kept')).toBe('yes');
    refuse = true;
    expect(() => store.setItem('later', 'too')).not.toThrow();
    expect(store.getItem('later')).toBe('too');
    expect(store.inMemory).toBe(true);
  });

  it('reads the interface language as Hebrew, and sets it, when localStorage is denied', async () => {
    vi.resetModules();
    const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage')!;
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, get: denied });
    try {
      const { storedLanguage } = await import('./language');
      const { createBundleTextSource } = await import('./texts');
      expect(storedLanguage()).toBe('he');
      const texts = createBundleTextSource();
      expect(() => texts.setLanguage('en')).not.toThrow();
      expect(storedLanguage()).toBe('en');
      const { tokenStorage } = await import('./token-storage');
      expect(tokenStorage.get()).toBeNull();
    } finally {
      Object.defineProperty(globalThis, 'localStorage', original);
    }
  });
});
