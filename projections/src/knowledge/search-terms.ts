/**
 * Turns text into the terms Kesher indexes and searches with Postgres full-text search under the `simple`
 * configuration. Postgres' own parser and dictionaries are not used at all: we hand Postgres a ready
 * tsvector literal, so indexing behaves the same on Postgres and PGlite whatever their locale, and
 * Hebrew gets the treatment no stock dictionary gives it. Indexing and querying share every rule here;
 * change one and the knowledge projection's version must be bumped so the index is rebuilt.
 */

/** One searchable form of a word. `exact` is the word as written; the others have a prefix or suffix removed. */
export interface TermVariant {
  term: string;
  exact: boolean;
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
  'ו', 'ה', 'ב', 'ל', 'מ', 'ש', 'כ',
  'וה', 'וב', 'ול', 'ומ', 'וש', 'וכ', 'שה', 'שב', 'של', 'שמ', 'שכ', 'מה', 'כש', 'לכ',
  'ומה', 'ושה', 'ושב', 'ושל', 'ושמ', 'וכש', 'כשה', 'כשב', 'כשל', 'כשמ', 'לכש', 'שמה',
].sort((a, b) => b.length - a.length);

/** A stripped form must keep at least this many letters, or "מים" would also be indexed as "ים". */
const MIN_STEM_LETTERS = 2;
/** Longer "words" are hashes, URLs glued together or base64; they only bloat the index. */
const MAX_TERM_LENGTH = 48;

const HEBREW_STOP_WORDS = new Set(
  [
    'של', 'את', 'על', 'עם', 'אל', 'מן', 'גם', 'כי', 'אם', 'או', 'לא', 'זה', 'זו', 'זאת', 'הוא', 'היא', 'הם', 'הן',
    'אני', 'אתה', 'את', 'אנחנו', 'אתם', 'אתן', 'מה', 'מי', 'איך', 'איפה', 'היכן', 'מתי', 'למה', 'מדוע', 'כמה', 'האם',
    'יש', 'אין', 'היה', 'היתה', 'הייתה', 'היו', 'יהיה', 'כל', 'כך', 'כן', 'רק', 'עוד', 'אבל', 'אשר', 'אותו', 'אותה',
    'אותם', 'לו', 'לה', 'להם', 'בו', 'בה', 'בהם', 'שלי', 'שלו', 'שלה', 'שלהם', 'שלנו', 'שלכם', 'אז', 'הזה', 'הזאת',
    'האלה', 'אלה', 'אלו', 'עד', 'כמו', 'לי', 'לנו', 'לכם', 'אתכם', 'אותי', 'אותנו', 'הנה', 'אך', 'ולא', 'כדי', 'בין',
    'אצל', 'פה', 'שם', 'מאוד', 'מאד', 'יותר', 'פעם', 'אחרי', 'לפני', 'תוך', 'בתוך', 'אפשר', 'צריך', 'ידי', 'לפי',
  ].map(foldHebrew),
);

const ENGLISH_STOP_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'of', 'to', 'in', 'on', 'at', 'for', 'from', 'by', 'with', 'as', 'about', 'into',
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did', 'have', 'has', 'had', 'having',
  'what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how', 'can', 'could', 'should', 'would', 'will',
  'shall', 'may', 'might', 'must', 'i', 'me', 'my', 'we', 'us', 'our', 'you', 'your', 'he', 'him', 'his', 'she', 'her',
  'it', 'its', 'they', 'them', 'their', 'this', 'that', 'these', 'those', 'there', 'here', 'if', 'then', 'than', 'so',
  'not', 'no', 'yes', 'any', 'some', 'all', 'each', 'much', 'many', 'more', 'most', 'very', 'too', 'also', 'just',
  'only', 'up', 'out', 'over', 'again', 'get', 'got', 'tell', 'know', 'need', 'want', 'please', 'someone', 'anyone',
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

/** Every form under which a token is indexed or searched; empty for stop words and noise. */
export function termVariants(token: string): TermVariant[] {
  if (token.length > MAX_TERM_LENGTH) return [];
  if (isHebrew(token)) {
    const folded = foldHebrew(token);
    if (folded.length < 2 || HEBREW_STOP_WORDS.has(folded)) return [];
    const variants: TermVariant[] = [{ term: folded, exact: true }];
    for (const prefix of HEBREW_PREFIXES) {
      if (!folded.startsWith(prefix)) continue;
      const stem = folded.slice(prefix.length);
      if (stem.length < MIN_STEM_LETTERS || HEBREW_STOP_WORDS.has(stem)) continue;
      if (!variants.some((variant) => variant.term === stem)) variants.push({ term: stem, exact: false });
    }
    return variants;
  }
  if (/^\p{N}+$/u.test(token)) return [{ term: token, exact: true }];
  if (ENGLISH_STOP_WORDS.has(token) || token.length < 2) return [];
  if (/^[a-z]+$/.test(token)) {
    const stem = stemEnglish(token);
    return stem === token ? [{ term: token, exact: true }] : [{ term: token, exact: true }, { term: stem, exact: false }];
  }
  return [{ term: token, exact: true }];
}

/** The words of a question worth searching for, each with its variants; stop words are gone. */
export function queryWords(question: string): QueryWord[] {
  const words: QueryWord[] = [];
  for (const token of searchTokens(question)) {
    const variants = termVariants(token);
    if (variants.length > 0 && !words.some((word) => word.word === variants[0]!.term)) words.push({ word: variants[0]!.term, variants });
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
  const lexemes = [...entries].map(([term, positions]) => `${quoteLexeme(term)}:${[...positions].map(([at, weight]) => `${at}${weight}`).join(',')}`);
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
