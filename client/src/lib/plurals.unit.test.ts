import { createInstance, type Resource } from 'i18next';
import { describe, expect, it } from 'vitest';
import { en as coreEn } from '@/locales/en';
import { he as coreHe } from '@/locales/he';
import { i18nOptions, type Language } from './i18n';
import { lookup } from './texts';

/**
 * Every pluralised text in both languages. i18next picks `key_<category>` by Intl.PluralRules, and
 * Hebrew has a dual (`_two`): a bundle that lacks a form the language asks for shows the raw key
 * ("count" on a dashboard with exactly two assistants). Checked through i18next (the owner app) and
 * through the plain bundle reader (the visitor pages).
 */
const LANGUAGES: Language[] = ['en', 'he'];
const COUNTS = [0, 1, 2, 3, 11, 20, 100];
const SUFFIX = /^(.*)_(zero|one|two|few|many|other)$/;

const featureModules = import.meta.glob<Record<string, object>>('/src/features/*/locales/{en,he}.ts', { eager: true });

/** namespace → language → bundle, for every feature and the core namespaces. */
function bundles(): Map<string, Record<Language, object>> {
  const all = new Map<string, Record<Language, object>>();
  for (const [path, module] of Object.entries(featureModules)) {
    const [, feature, language] = /features\/([^/]+)\/locales\/(en|he)\.ts$/.exec(path)! as unknown as [
      string,
      string,
      Language,
    ];
    const entry = all.get(feature) ?? ({} as Record<Language, object>);
    entry[language] = module[language]!;
    all.set(feature, entry);
  }
  for (const namespace of Object.keys(coreEn) as (keyof typeof coreEn)[])
    all.set(namespace, { en: coreEn[namespace], he: coreHe[namespace] });
  return all;
}

/** The plural keys of a bundle, as dotted paths without their suffix. */
function pluralBases(bundle: object, prefix = ''): Set<string> {
  const bases = new Set<string>();
  for (const [key, value] of Object.entries(bundle)) {
    if (value && typeof value === 'object') for (const base of pluralBases(value, `${prefix}${key}.`)) bases.add(base);
    const match = SUFFIX.exec(key);
    if (match && typeof value === 'string') bases.add(`${prefix}${match[1]}`);
  }
  return bases;
}

const has = (bundle: object, path: string) => typeof lookup(bundle, path) === 'string' && lookup(bundle, path) !== path;

const all = bundles();
const cases = [...all].flatMap(([namespace, byLanguage]) => {
  const bases = new Set([...pluralBases(byLanguage.en), ...pluralBases(byLanguage.he)]);
  return LANGUAGES.flatMap((language) => [...bases].map((base) => [namespace, language, base] as const));
});

describe('plural forms', () => {
  it('finds the pluralised texts (the dashboard count among them)', () => {
    expect(all.size).toBeGreaterThan(8);
    expect(cases).toContainEqual(['assistants', 'he', 'count']);
    expect(cases).toContainEqual(['assistants', 'en', 'count']);
  });

  it.each(cases)('%s:%s (%s) has every form the language needs', (namespace, language, base) => {
    const bundle = all.get(namespace)![language];
    for (const category of new Intl.PluralRules(language).resolvedOptions().pluralCategories) {
      expect(has(bundle, `${base}_${category}`), `${language} ${namespace}:${base}_${category}`).toBe(true);
    }
  });

  it.each(cases)('%s:%s (%s) reads as text for 0, 1, 2, 3, 11, 20 and 100', (namespace, language, base) => {
    const resources: Resource = {};
    for (const [ns, byLanguage] of all)
      for (const l of LANGUAGES) (resources[l] ??= {})[ns] = byLanguage[l] as Record<string, unknown>;
    const i18n = createInstance();
    void i18n.init(i18nOptions(resources, language));
    for (const count of COUNTS) {
      const viaI18next = i18n.t(`${namespace}:${base}`, { count });
      const viaBundle = lookup(all.get(namespace)![language], base, { count }, language);
      for (const text of [viaI18next, viaBundle]) {
        expect(text, `${language} ${namespace}:${base} count=${count}`).not.toBe(base);
        expect(text).not.toMatch(/\{count\}/);
        expect(text.trim()).not.toBe('');
      }
    }
  });

  it('says "two assistants" in Hebrew with its dual', () => {
    expect(lookup(all.get('assistants')!.he, 'count', { count: 2 }, 'he')).toBe('יש לכם שני עוזרים');
  });
});
