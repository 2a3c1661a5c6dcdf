/**
 * Turns text into the terms Kesher indexes and searches with Postgres full-text search under the `simple`
 * configuration. Postgres' own parser and dictionaries are not used at all: we hand Postgres a ready
 * tsvector literal, so indexing behaves the same on Postgres and PGlite whatever their locale, and
 * Hebrew gets the treatment no stock dictionary gives it. The knowledge read model indexes with these rules
 * and the knowledge module searches with them, which is why they live here, below both: change one and the
 * knowledge projection's version must be bumped (SEARCH_TERMS_VERSION) so the index is rebuilt.
 */

/** Bumped whenever a rule below changes what a text is indexed as; the knowledge projection rebuilds on it. */
export const SEARCH_TERMS_VERSION = 3;

/**
 * How a searchable form was reached from the word as written: `exact` is the word itself; `prefix` has a
 * Hebrew proclitic or an English ending removed; `inflection` also has a Hebrew suffix (plural, construct,
 * possessive, feminine ending) removed; `spelling` is the form without the vowel letters ו/י that plene
 * spelling adds. Retrieval trusts them in that order.
 */
export type TermForm = 'exact' | 'prefix' | 'inflection' | 'spelling';

/** One searchable form of a word. */
export interface TermVariant {
  term: string;
  exact: boolean;
  form: TermForm;
}

/** A word of the question with the forms it may take in the indexed text. */
export interface QueryWord {
  word: string;
  variants: TermVariant[];
}

const HEBREW_LETTER = /[\u05D0-\u05EA]/;
const FINAL_FORMS: Record<string, string> = { ך: 'כ', ם: 'מ', ן: 'נ', ף: 'פ', ץ: 'צ' };

/**
 * Hebrew proclitics: ו (and), ש/כש (that/when), ה (the), מ ל ב כ (from, to, in, as), and their usual
 * combinations. Listed rather than generated so that impossible strings ("בב", "הו") never count as a prefix.
 */
const HEBREW_PREFIXES = [
  'ו',
  'ה',
  'ב',
  'ל',
  'מ',
  'ש',
  'כ',
  'וה',
  'וב',
  'ול',
  'ומ',
  'וש',
  'וכ',
  'שה',
  'שב',
  'של',
  'שמ',
  'שכ',
  'מה',
  'כש',
  'לכ',
  'ומה',
  'ושה',
  'ושב',
  'ושל',
  'ושמ',
  'וכש',
  'כשה',
  'כשב',
  'כשל',
  'כשמ',
  'לכש',
  'שמה',
].sort((a, b) => b.length - a.length);

/** A stripped form must keep at least this many letters, or "מים" would also be indexed as "ים". */
const MIN_STEM_LETTERS = 2;
/** Longer "words" are hashes, URLs glued together or base64; they only bloat the index. */
const MAX_TERM_LENGTH = 48;

const HEBREW_STOP_WORDS = new Set(
  [
    'של',
    'את',
    'על',
    'עם',
    'אל',
    'מן',
    'גם',
    'כי',
    'אם',
    'או',
    'לא',
    'זה',
    'זו',
    'זאת',
    'הוא',
    'היא',
    'הם',
    'הן',
    'אני',
    'אתה',
    'את',
    'אנחנו',
    'אתם',
    'אתן',
    'מה',
    'מי',
    'איך',
    'איפה',
    'היכן',
    'מתי',
    'למה',
    'מדוע',
    'כמה',
    'האם',
    'יש',
    'אין',
    'היה',
    'היתה',
    'הייתה',
    'היו',
    'יהיה',
    'כל',
    'כך',
    'כן',
    'רק',
    'עוד',
    'אבל',
    'אשר',
    'אותו',
    'אותה',
    'אותם',
    'לו',
    'לה',
    'להם',
    'בו',
    'בה',
    'בהם',
    'שלי',
    'שלו',
    'שלה',
    'שלהם',
    'שלנו',
    'שלכם',
    'אז',
    'הזה',
    'הזאת',
    'האלה',
    'אלה',
    'אלו',
    'עד',
    'כמו',
    'לי',
    'לנו',
    'לכם',
    'אתכם',
    'אותי',
    'אותנו',
    'הנה',
    'אך',
    'ולא',
    'כדי',
    'בין',
    'אצל',
    'פה',
    'שם',
    'מאוד',
    'מאד',
    'יותר',
    'פעם',
    'אחרי',
    'לפני',
    'תוך',
    'בתוך',
    'אפשר',
    'צריך',
    'ידי',
    'לפי',
    // Question words and the pronouns visitors address a business with ("אצלכם", "בשבילכם").
    'איזה',
    'איזו',
    'אילו',
    'אצלכם',
    'אצלנו',
    'אצלך',
    'בשבילכם',
    'בשבילי',
    'עבורכם',
    'מכם',
    'אליכם',
    'עליכם',
    'לך',
    'אתן',
    'עושים',
    'עושה',
    'עושות',
    'לעשות',
    'צריכים',
    'צריכה',
    'יכול',
    'יכולה',
    'יכולים',
    'רוצה',
    'רוצים',
    'בבקשה',
    'נא',
    'תגידו',
    'תודה',
    'היי',
  ].map(foldHebrew),
);

const ENGLISH_STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'of',
  'to',
  'in',
  'on',
  'at',
  'for',
  'from',
  'by',
  'with',
  'as',
  'about',
  'into',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'am',
  'do',
  'does',
  'did',
  'have',
  'has',
  'had',
  'having',
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'when',
  'where',
  'why',
  'how',
  'can',
  'could',
  'should',
  'would',
  'will',
  'shall',
  'may',
  'might',
  'must',
  'i',
  'me',
  'my',
  'we',
  'us',
  'our',
  'you',
  'your',
  'he',
  'him',
  'his',
  'she',
  'her',
  'it',
  'its',
  'they',
  'them',
  'their',
  'this',
  'that',
  'these',
  'those',
  'there',
  'here',
  'if',
  'then',
  'than',
  'so',
  'not',
  'no',
  'yes',
  'any',
  'some',
  'all',
  'each',
  'much',
  'many',
  'more',
  'most',
  'very',
  'too',
  'also',
  'just',
  'only',
  'up',
  'out',
  'over',
  'again',
  'get',
  'got',
  'tell',
  'know',
  'need',
  'want',
  'please',
  'someone',
  'anyone',
  'hi',
  'hello',
  'thanks',
  'thank',
  'guys',
  'like',
  'able',
  'im',
  'youre',
  'dont',
  'doesnt',
  'cant',
]);

function foldFinals(word: string): string {
  return word.replace(/[ךםןףץ]/g, (letter) => FINAL_FORMS[letter]!);
}

/**
 * Final letters as their plain forms, and a doubled yod or vav as a single one: modern spelling writes
 * התיישבות where older texts (and many people) write התישבות, and both must meet.
 */
function foldHebrew(word: string): string {
  return foldFinals(word).replace(/יי/g, 'י').replace(/וו/g, 'ו');
}

/**
 * The character-level rules. Niqqud and cantillation marks are dropped (U+0591–U+05C7 minus the few that
 * are punctuation); geresh and gershayim, in any of the quote characters people type for them, are removed
 * inside and at the end of Hebrew words so that צה"ל, צה״ל and צה“ל all become צהל; everything that is not
 * a letter or a digit separates words.
 */
export function normalizeForSearch(text: string): string {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      // maqaf, paseq, sof pasuq and nun hafukha are punctuation: they separate words.
      .replace(/[\u05BE\u05C0\u05C3\u05C6]/g, ' ')
      .replace(/[\u0591-\u05C7]/g, '')
      .replace(/([\u05D0-\u05EA])["'`´\u05F3\u05F4\u2018\u2019\u201C\u201D\u201E]+(?=[\u05D0-\u05EA])/g, '$1')
      .replace(/([\u05D0-\u05EA])["'`´\u05F3\u05F4\u2018\u2019\u201C\u201D]+(?![\p{L}\p{N}])/gu, '$1')
      // English possessives and contractions: "owner's" → "owner", "don't" → "dont".
      .replace(/([a-z])['\u2019]s\b/g, '$1')
      .replace(/([a-z])['\u2019]([a-z])/g, '$1$2')
  );
}

/** The words of a text, normalised, in order, including stop words (positions must stay honest). */
export function searchTokens(text: string): string[] {
  return normalizeForSearch(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * A light English stemmer: enough for plural nouns and the common verb endings to meet their base form
 * ("policies" ~ "policy", "booking" ~ "booked" ~ "book"). It only has to be consistent, not linguistic,
 * because the same function treats the question and the text.
 */
export function stemEnglish(word: string): string {
  let stem = word;
  if (stem.length > 4 && stem.endsWith('ies')) stem = `${stem.slice(0, -3)}y`;
  else if (stem.length > 4 && /(ss|x|z|ch|sh)es$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.length > 3 && stem.endsWith('s') && !/(ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);

  const verbEnding = /^(.{3,}?)(ing|ed)$/.exec(stem);
  if (verbEnding && /[aeiouy]/.test(verbEnding[1]!)) {
    stem = verbEnding[1]!;
    if (/([b-df-hj-km-np-tv-xz])\1$/.test(stem) && !/(ll|ss|zz)$/.test(stem)) stem = stem.slice(0, -1);
  }
  if (stem.length > 3 && stem.endsWith('e')) stem = stem.slice(0, -1);
  return stem;
}

const isHebrew = (token: string) => HEBREW_LETTER.test(token);

/**
 * Hebrew suffixes, longest first, each with what replaces it. Plurals (־ים, ־ות, and ־ות → ־ה so that שעות
 * meets שעה), the construct ־י (מחירי ← מחירים), possessive endings (־נו/־ינו ours, ־כם/־יכם yours, ־הם/־יהם
 * theirs, ־ך/־יך yours) and the feminine ־ה/־ית (פתוחה ← פתוח). Forms are only ever added beside the word
 * as written, never instead of it, so an over-eager strip costs a little precision, not a lost match.
 */
const HEBREW_SUFFIXES: readonly { suffix: string; replacements: readonly string[]; minBase: number }[] = [
  { suffix: 'יהם', replacements: [''], minBase: 2 },
  { suffix: 'יכם', replacements: [''], minBase: 2 },
  { suffix: 'ינו', replacements: [''], minBase: 2 },
  { suffix: 'ים', replacements: ['', 'ה'], minBase: 2 },
  { suffix: 'ות', replacements: ['', 'ה'], minBase: 2 },
  { suffix: 'הם', replacements: [''], minBase: 3 },
  { suffix: 'כם', replacements: [''], minBase: 3 },
  { suffix: 'נו', replacements: [''], minBase: 3 },
  { suffix: 'יך', replacements: [''], minBase: 3 },
  { suffix: 'ית', replacements: [''], minBase: 3 },
  { suffix: 'ה', replacements: [''], minBase: 3 },
  { suffix: 'י', replacements: [''], minBase: 3 },
  // Feminine ־ת (כוללת ← כולל, מאוחרת ← מאוחר) only on longer words: בית and שבת stay whole.
  { suffix: 'ת', replacements: ['', 'ה'], minBase: 4 },
].map((rule) => ({ ...rule, suffix: foldFinals(rule.suffix) }));

/** A form reached by removing a suffix keeps at least this many letters (שעות → שעה, never ש). */
const MIN_INFLECTED_LETTERS = 3;

function withoutSuffixes(stem: string): string[] {
  const forms: string[] = [];
  for (const { suffix, replacements, minBase } of HEBREW_SUFFIXES) {
    if (!stem.endsWith(suffix)) continue;
    const base = stem.slice(0, -suffix.length);
    if (base.length < minBase) continue;
    for (const replacement of replacements) {
      const form = base + replacement;
      if (form.length >= MIN_INFLECTED_LETTERS && !forms.includes(form)) forms.push(form);
    }
  }
  return forms;
}

/**
 * The word without the vowel letters ו and י after its first letter (כתיב חסר): כיסא and כסא, תוכנית and
 * תכנית, פתיחה and פתחה meet. Only kept when at least three letters remain, since short skeletons collide.
 */
function skeleton(word: string): string | undefined {
  const bare = word[0] + word.slice(1).replace(/[וי]/g, '');
  return bare !== word && bare.length >= 3 ? bare : undefined;
}

/** Words spelt like a proclitic before a stop word (כ+לה, מ+עם, ב+על, מ+על) that are words of their own. */
const PROCLITIC_LOOKALIKES = new Set(['כלה', 'מעמ', 'בעל', 'מעל']);

function hebrewVariants(token: string): TermVariant[] {
  const folded = foldHebrew(token);
  if (folded.length < 2 || HEBREW_STOP_WORDS.has(folded)) return [];
  // A proclitic before a stop word leaves a stop word: ומה, באיזה, שאין, לכל — except the words of their own
  // that are spelt so (כלה "bride", מע"מ "VAT", בעל "owner", מעל "above").
  if (
    !PROCLITIC_LOOKALIKES.has(folded) &&
    HEBREW_PREFIXES.some(
      (prefix) =>
        prefix.length < folded.length - 1 &&
        folded.startsWith(prefix) &&
        HEBREW_STOP_WORDS.has(folded.slice(prefix.length)),
    )
  )
    return [];
  const variants: TermVariant[] = [{ term: folded, exact: true, form: 'exact' }];
  const add = (term: string, form: TermForm) => {
    if (!variants.some((variant) => variant.term === term)) variants.push({ term, exact: false, form });
  };
  const stems = [folded];
  for (const prefix of HEBREW_PREFIXES) {
    if (!folded.startsWith(prefix)) continue;
    const stem = folded.slice(prefix.length);
    if (stem.length < MIN_STEM_LETTERS || HEBREW_STOP_WORDS.has(stem)) continue;
    add(stem, 'prefix');
    stems.push(stem);
  }
  const inflected: string[] = [];
  for (const stem of stems) {
    for (const form of withoutSuffixes(stem)) {
      if (HEBREW_STOP_WORDS.has(form)) continue;
      add(form, 'inflection');
      inflected.push(form);
    }
  }
  for (const form of [...stems, ...inflected]) {
    const bare = skeleton(form);
    if (bare) add(bare, 'spelling');
  }
  return variants;
}

/** Every form under which a token is indexed or searched; empty for stop words and noise. */
export function termVariants(token: string): TermVariant[] {
  if (token.length > MAX_TERM_LENGTH) return [];
  if (isHebrew(token)) return hebrewVariants(token);
  if (/^\p{N}+$/u.test(token)) return [{ term: token, exact: true, form: 'exact' }];
  if (ENGLISH_STOP_WORDS.has(token) || token.length < 2) return [];
  if (/^[a-z]+$/.test(token)) {
    const stem = stemEnglish(token);
    return stem === token
      ? [{ term: token, exact: true, form: 'exact' }]
      : [
          { term: token, exact: true, form: 'exact' },
          { term: stem, exact: false, form: 'prefix' },
        ];
  }
  return [{ term: token, exact: true, form: 'exact' }];
}

/** The words of a question worth searching for, each with its variants; stop words are gone. */
export function queryWords(question: string): QueryWord[] {
  const words: QueryWord[] = [];
  for (const token of searchTokens(question)) {
    const variants = termVariants(token);
    if (variants.length > 0 && !words.some((word) => word.word === variants[0]!.term))
      words.push({ word: variants[0]!.term, variants });
  }
  return words;
}

/** tsvector positions are capped by Postgres at 16383; later words share the last position. */
const MAX_POSITION = 16383;

/** A lexeme quoted for a tsvector or tsquery literal. */
const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The lexeme that scopes a passage to its owner (an assistant). Search terms are letters and digits
 * only, so a lexeme starting with "@" can never collide with one. Putting the scope inside the tsvector
 * lets one GIN lookup answer "this word, in this assistant's passages" without touching other tenants' rows.
 */
export const scopeLexeme = (scope: string) => `@${scope}`;

/**
 * A tsvector literal for a passage: the word as written gets weight A, its stripped forms weight B at the
 * same position, so ranking can prefer exact matches and cover density still sees them as one place.
 * With `scope`, the scope lexeme is added without a position (ranking ignores it).
 */
export function toTsvectorLiteral(text: string, scope?: string): string {
  const entries = new Map<string, Map<number, 'A' | 'B'>>();
  let position = 0;
  for (const token of searchTokens(text)) {
    position = Math.min(position + 1, MAX_POSITION);
    for (const { term, exact } of termVariants(token)) {
      const positions = entries.get(term) ?? new Map<number, 'A' | 'B'>();
      if (exact || !positions.has(position)) positions.set(position, exact ? 'A' : 'B');
      entries.set(term, positions);
    }
  }
  const lexemes = [...entries].map(
    ([term, positions]) => `${quoteLexeme(term)}:${[...positions].map(([at, weight]) => `${at}${weight}`).join(',')}`,
  );
  if (scope !== undefined) lexemes.push(quoteLexeme(scopeLexeme(scope)));
  return lexemes.join(' ');
}

/** A tsquery literal matching any of the terms. */
export function toOrTsquery(terms: readonly string[]): string {
  return terms.map(quoteLexeme).join(' | ');
}

/** A tsquery literal matching the term within the scope. */
export function toScopedTsquery(term: string, scope: string): string {
  return `${quoteLexeme(term)} & ${quoteLexeme(scopeLexeme(scope))}`;
}
