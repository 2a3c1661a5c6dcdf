import { createContext, useContext, useMemo, useSyncExternalStore } from 'react';
import { applyDirection, type Language, LANGUAGE_KEY, storedLanguage } from './language';
import { localStore } from './safe-storage';

/**
 * The texts port. Components shared by the owner app and the visitor pages (the chat) ask for their
 * texts through `useTexts(namespace, bundles)`; the owner app answers from i18next (lib/i18n.ts), the
 * visitor entry from `createBundleTextSource`, a few hundred bytes instead of the i18n runtime.
 * Texts follow the spec's conventions: `{name}` placeholders, a missing key shows the key itself.
 */
export type Bundles = Record<Language, object>;
export type Translate = (key: string, vars?: Record<string, unknown>) => string;

export interface TextSource {
  language(): Language;
  setLanguage(language: Language): void;
  subscribe(listener: () => void): () => void;
  /** A translator for one namespace; the bundles are registered on first use. */
  translator(namespace: string, bundles: Bundles): Translate;
}

const TextSourceContext = createContext<TextSource | null>(null);
export const TextSourceProvider = TextSourceContext.Provider;

function useSource(): TextSource {
  const source = useContext(TextSourceContext);
  if (!source) throw new Error('useTexts needs a TextSourceProvider');
  return source;
}

/** The page's language, re-rendering on a switch. */
export function useLanguage(): Language {
  const source = useSource();
  return useSyncExternalStore(source.subscribe, source.language, source.language);
}

export function useTexts(
  namespace: string,
  bundles: Bundles,
): { t: Translate; language: Language; setLanguage: (l: Language) => void } {
  const source = useSource();
  const language = useLanguage();
  // `language` is a dependency on purpose: a new translator after a switch re-renders the texts.
  const t = useMemo(() => source.translator(namespace, bundles), [source, namespace, bundles, language]);
  return { t, language, setLanguage: source.setLanguage };
}

const find = (bundle: object | undefined, key: string): string | undefined => {
  let value: unknown = bundle;
  for (const part of key.split('.'))
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return typeof value === 'string' ? value : undefined;
};

/**
 * Looks up `a.b.c` in a nested bundle and fills `{name}` placeholders. With a numeric `count` and a
 * `language`, plural forms are chosen as i18next chooses them (`key_one`, `key_two`, `key_other`, …
 * by Intl.PluralRules), falling back to the plain key.
 */
export function lookup(
  bundle: object | undefined,
  key: string,
  vars?: Record<string, unknown>,
  language?: Language,
): string {
  const count = vars?.count;
  const plural =
    typeof count === 'number' && language
      ? (find(bundle, `${key}_${new Intl.PluralRules(language).select(count)}`) ?? find(bundle, `${key}_other`))
      : undefined;
  const value = plural ?? find(bundle, key);
  if (value === undefined) return key;
  return vars
    ? value.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))
    : value;
}

/** The small text source of the visitor pages: plain bundles, the stored language, no i18n runtime. */
export function createBundleTextSource(initial: Language = storedLanguage()): TextSource {
  let language = initial;
  const listeners = new Set<() => void>();
  applyDirection(language);
  return {
    language: () => language,
    setLanguage(next) {
      language = next;
      localStore.setItem(LANGUAGE_KEY, next);
      applyDirection(next);
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    translator: (_namespace, bundles) => (key, vars) => lookup(bundles[language], key, vars, language),
  };
}

export function useTextSource(): TextSource | null {
  return useContext(TextSourceContext);
}
