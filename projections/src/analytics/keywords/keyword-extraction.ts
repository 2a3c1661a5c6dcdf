import { parseRedirect } from '@kesher/contracts';
import { searchTokens, stemEnglish, termVariants } from '@kesher/contracts/rules/search-terms';

/** A keyword as counted (`key`: its forms meet there) and as shown (`label`: a form someone wrote). */
export interface Keyword {
  key: string;
  label: string;
}

/** Beyond the search stop words: the pieces of addresses and markup that answers carry. */
const NOISE = new Set([
  'http',
  'https',
  'www',
  'com',
  'co',
  'il',
  'org',
  'net',
  'html',
  'htm',
  'php',
  'aspx',
  'redirect',
  'url',
]);
const HEBREW = /[\u05D0-\u05EA]/;

/**
 * The keywords of a message, each once however often it repeats: the words Kesher's search would look
 * for (the knowledge module's tokeniser: Hebrew and English stop words, niqqud, geresh and final letters
 * folded), without numbers and address fragments. English words meet at their stem ("prices" and "price");
 * Hebrew words at their folded form — their prefixed forms ("המשלוח") are merged into the bare one
 * when the bare one is also counted (see mergeForms), since a lone prefix-like letter is too often part
 * of the word itself to strip blindly.
 */
export function keywordsOf(text: string): Keyword[] {
  const found = new Map<string, Keyword>();
  for (const token of searchTokens(parseRedirect(text).text)) {
    const key = keyOf(token);
    if (key === null || found.has(key)) continue;
    found.set(key, { key, label: token });
  }
  return [...found.values()];
}

/**
 * A token's keyword key, or null when it is no keyword. Remembered: a rebuild meets the same few thousand
 * words millions of times, and the Hebrew variants are the costly part of counting them.
 */
const keys = new Map<string, string | null>();
const KEYS_REMEMBERED = 200_000;

function keyOf(token: string): string | null {
  const known = keys.get(token);
  if (known !== undefined) return known;
  let key: string | null = null;
  if (!(/^\p{N}+$/u.test(token) || NOISE.has(token) || token.length < 2)) {
    const variants = termVariants(token);
    if (variants.length > 0)
      key = HEBREW.test(token) ? variants[0]!.term : /^[a-z]+$/.test(token) ? stemEnglish(token) : variants[0]!.term;
    if (key !== null && key.length < 2) key = null;
  }
  if (keys.size >= KEYS_REMEMBERED) keys.clear();
  keys.set(token, key);
  return key;
}

export interface CountedKeyword {
  key: string;
  label: string;
  count: number;
}

/** A keyword after merging: the keys whose counts it holds (its own first). */
export interface MergedKeyword extends CountedKeyword {
  members: string[];
}

/**
 * Folds a Hebrew keyword written with a proclitic or an inflection ("והמשלוח", "משלוחים") into the bare
 * form when that form was counted too, busiest first. Works on a ranked list of candidates: only the
 * forms that made it into the candidates can meet.
 */
export function mergeForms(candidates: readonly CountedKeyword[]): MergedKeyword[] {
  const byKey = new Map<string, MergedKeyword>(candidates.map((c) => [c.key, { ...c, members: [c.key] }]));
  // Longer keys first: a form folds into a shorter one, which may itself fold further.
  for (const candidate of [...candidates].sort((a, b) => b.key.length - a.key.length)) {
    if (!HEBREW.test(candidate.key)) continue;
    const current = byKey.get(candidate.key);
    if (!current) continue;
    const target = termVariants(candidate.key)
      .filter((variant) => !variant.exact && variant.form !== 'spelling' && variant.term.length >= 3)
      .map((variant) => byKey.get(variant.term))
      .find((other) => other !== undefined && other.key !== current.key);
    if (!target) continue;
    // The bare form names it: it is the word without what was attached to it.
    target.count += current.count;
    target.members.push(...current.members);
    byKey.delete(current.key);
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}
