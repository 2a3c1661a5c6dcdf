/**
 * Clean text is what every extractor returns and what chat shows as a source: Unicode as the author meant
 * it (Hebrew in logical order, niqqud kept), without the invisible characters that break search and
 * display, and with whitespace reduced to single spaces, line breaks and blank lines between paragraphs.
 */

/** C0/C1 controls except tab and newline, and the invisible formatting characters that only get in the way. */
const INVISIBLE = new RegExp(
  [
    '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]',
    '\\uFEFF', // byte-order marks, also in the middle of concatenated files
    '\\u00AD', // soft hyphen
    '\\u200B', // zero-width space
    '[\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069\\u061C]', // bidi marks and embeddings: the text is already in logical order
    '\\uFFFD', // replacement characters left by a bad decode
  ].join('|'),
  'g',
);

const SPACES = /[\t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]+/g;

/** Alphabetic presentation forms (ligatures, Hebrew letters with points as one code point) as plain letters. */
const PRESENTATION_FORMS = /[\uFB00-\uFB4F]/g;

export function cleanText(text: string): string {
  return text
    .replace(/\r\n?|\u2028|\u2029|\u0085/g, '\n')
    .replace(PRESENTATION_FORMS, (form) => form.normalize('NFKC'))
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(SPACES, ' ')
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The dominant language, by letters: Hebrew wins from a modest share because Hebrew business documents
 * are full of English product names, while an English document with a Hebrew word stays English.
 * Latin-script text counts as English only when English function words are common in it.
 */
export function detectLanguage(text: string): 'he' | 'en' | 'other' {
  const sample = text.length > 200_000 ? text.slice(0, 200_000) : text;
  const hebrew = sample.match(/[\u05D0-\u05EA]/g)?.length ?? 0;
  const latin = sample.match(/[A-Za-z]/g)?.length ?? 0;
  const otherLetters = (sample.match(/\p{L}/gu)?.length ?? 0) - hebrew - latin;
  const letters = hebrew + latin + otherLetters;
  if (letters === 0) return 'other';
  if (hebrew / letters >= 0.3) return 'he';
  if (latin / letters < 0.5) return 'other';
  const words = sample.toLowerCase().match(/[a-z]+/g) ?? [];
  const functionWords = words.filter((word) => ENGLISH_FUNCTION_WORDS.has(word)).length;
  return words.length > 0 && functionWords / words.length >= 0.08 ? 'en' : 'other';
}

const ENGLISH_FUNCTION_WORDS = new Set([
  'the',
  'and',
  'of',
  'to',
  'a',
  'in',
  'is',
  'for',
  'on',
  'that',
  'with',
  'you',
  'it',
  'are',
  'as',
  'be',
  'or',
  'this',
  'your',
  'we',
  'can',
  'by',
  'if',
  'not',
  'at',
  'from',
]);
