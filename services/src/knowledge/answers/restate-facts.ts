import { answerSpans, type AnswerKind } from '../search/answer-kinds.js';

/**
 * The facts of a quoted passage given in the question's language, for an answer whose evidence is
 * written in the other one: a Hebrew visitor asking about an English page gets "890 ש"ח", "ראשון–חמישי
 * 9:00–21:00", "14 Harbor Street" rather than the English sentence. Only what can be carried across
 * without a translation model is: amounts and their currency, clock times and weekdays, durations,
 * phone numbers, e-mail addresses, street addresses, years and names as written. A kind of answer this
 * cannot carry (a yes/no question, "what is included") gives no facts, and the caller quotes the sentence.
 */
export type FactLanguage = 'he' | 'en';

const SHEKEL = /^(?:shekels?|nis|ils|₪|ש["״]ח|שקלים|שקל)$/iu;
const DOLLAR = /^(?:\$|dollars?|usd)$/iu;
const EURO = /^(?:€|euros?|eur)$/iu;

/** "890 ILS", "NIS 150", "₪48", "24 shekels", "$129" in the question's language: the shekel as ש"ח or ILS, dollars and euros by their sign. */
export function restatePrice(span: string, language: FactLanguage): string {
  const number = /\d(?:[\d,.]*\d)?/.exec(span)?.[0] ?? span;
  const scale = /\b(million|thousand)\b|(מיליון|אלף)/iu.exec(span);
  const scaleWord = scale
    ? language === 'he'
      ? scale[1]
        ? { million: 'מיליון', thousand: 'אלף' }[scale[1].toLowerCase()]
        : scale[2]
      : scale[2]
        ? { מיליון: 'million', אלף: 'thousand' }[scale[2]]
        : scale[1]!.toLowerCase()
    : undefined;
  const amount = scaleWord ? `${number} ${scaleWord}` : number;
  const currency = span
    .replace(number, '')
    .replace(scale?.[0] ?? '', '')
    .trim();
  if (SHEKEL.test(currency)) return language === 'he' ? `${amount} ש"ח` : `${amount} ILS`;
  if (DOLLAR.test(currency)) return `$${amount}`;
  if (EURO.test(currency)) return `€${amount}`;
  return span.trim();
}

/** Amounts listed before a price share its currency: "100, 200 and 300 shekels", "50 או 80 ש"ח". */
const AMOUNTS_BEFORE = /((?:\d[\d,.]*\d|\d)(?:\s*(?:,|and|or|או)\s*|\s+ו-?)?)+$/u;

/** A price with the amounts listed before it in the same currency: "100, 200, 300 ש"ח". */
function restatePriceList(text: string, span: { index: number; text: string }, language: FactLanguage): string {
  const price = restatePrice(span.text, language);
  const listed = AMOUNTS_BEFORE.exec(text.slice(Math.max(0, span.index - 60), span.index));
  if (!listed || !/^\d/.test(span.text.trim())) return price;
  const amounts = listed[0].match(/\d[\d,.]*\d|\d/g)?.map((amount) => amount.replace(/,$/, '')) ?? [];
  return amounts.length === 0 ? price : `${amounts.join(', ')}, ${price}`;
}

const DAYS: readonly [string, string][] = [
  ['Sunday', 'ראשון'],
  ['Monday', 'שני'],
  ['Tuesday', 'שלישי'],
  ['Wednesday', 'רביעי'],
  ['Thursday', 'חמישי'],
  ['Friday', 'שישי'],
  ['Saturday', 'שבת'],
];
/** A weekday in either language: English with an optional plural, Hebrew after its proclitics (ו־, ב־, ה־) or "ימי"/"יום". */
/** A Hebrew timetable's weekday letters: "א'–ה' 9:00–19:00, ו' 8:30–14:00". */
const DAY_LETTERS = ['א', 'ב', 'ג', 'ד', 'ה', 'ו', 'ש'];
const DAY_WORD = new RegExp(
  `\\b(${DAYS.map(([en]) => en).join('|')})s?\\b|(?:^|[\\s(])(?:[ובהל]{0,2}(?:ימי|יום)\\s+)?[ובהלמ]{0,2}(${DAYS.map(([, he]) => he).join('|')})(?=[\\s,.;:?!)]|$)|(?<=^|[\\s(,;|:–-])[ובלמ]?(${DAY_LETTERS.join('|')})['׳’](?=[\\s,.;:)–-]|$)`,
  'giu',
);
const dayIndex = (word: string) =>
  DAYS.findIndex(([en, he], i) => en.toLowerCase() === word.toLowerCase() || he === word || DAY_LETTERS[i] === word);

const CLOCK = String.raw`\d{1,2}[:.]\d{2}`;
/** A clock time or a range of two: "9:00 to 21:00", "9:00–13:00", "בין 9:00 ל־13:00", "19:00 עד 22:00". */
const TIME_RANGE = new RegExp(`(${CLOCK})(?:\\s*(?:to|until|till|and|-|–|—|עד|ועד|ל[־-]?)\\s*(${CLOCK}))?`, 'giu');
/** Between two weekdays, a word or dash saying "through". */
const DAY_RANGE = /^\s*(?:to|through|until|till|-|–|—|עד)\s*(?:ימי|יום)?\s*$/iu;

/** A time fact and the weekdays it covers (indexes into DAYS), so that a question about Friday gets Friday's. */
interface TimeFact {
  at: number;
  days: number[];
  text: string;
}

function dayFacts(text: string, language: FactLanguage): { text: string; days: number[] } {
  const found = [...text.matchAll(DAY_WORD)].map((match) => ({
    index: match.index,
    end: match.index + match[0].length,
    day: dayIndex((match[1] ?? match[2] ?? match[3])!),
  }));
  const parts: string[] = [];
  const days: number[] = [];
  const name = (day: number) => DAYS[day]![language === 'he' ? 1 : 0];
  for (let i = 0; i < found.length; i++) {
    const next = found[i + 1];
    if (next && DAY_RANGE.test(text.slice(found[i]!.end, next.index))) {
      parts.push(`${name(found[i]!.day)}–${name(next.day)}`);
      for (let day = found[i]!.day; day <= next.day; day++) days.push(day);
      i++;
    } else {
      parts.push(name(found[i]!.day));
      days.push(found[i]!.day);
    }
  }
  return { text: parts.join(', '), days };
}

const CLOSED = /\bclosed\b|סגור|סגורים|סגורה/iu;
const SENTENCE_BREAK = /[.!?;]\s+/gu;

/**
 * Opening times: each clock time or range with the weekdays written before it in its sentence, and the
 * days a sentence says are closed. Times without a day are dropped when others have days (a holiday
 * eve's "13:00" is no answer about the week), unless they come first, as the rule the days are exceptions to.
 * Asked about a day, only the facts covering it.
 */
export function restateTimes(text: string, language: FactLanguage, askedDays: readonly number[] = []): string[] {
  const facts: TimeFact[] = [];
  const sentences: { start: number; text: string }[] = [];
  let start = 0;
  for (const end of text.matchAll(SENTENCE_BREAK)) {
    sentences.push({ start, text: text.slice(start, end.index + 1) });
    start = end.index + end[0].length;
  }
  sentences.push({ start, text: text.slice(start) });
  for (const sentence of sentences) {
    let since = 0;
    let clocks = 0;
    for (const match of sentence.text.matchAll(TIME_RANGE)) {
      clocks++;
      const days = dayFacts(sentence.text.slice(since, match.index), language);
      const time = match[2] ? `${match[1]}–${match[2]}` : match[1]!;
      facts.push({
        at: sentence.start + match.index,
        days: days.days,
        text: days.text ? `${days.text} ${time}` : time,
      });
      since = match.index + match[0].length;
    }
    const rest = sentence.text.slice(since);
    const closedDays = dayFacts(rest, language);
    if (CLOSED.test(rest) && closedDays.days.length > 0 && (clocks === 0 || since > 0)) {
      facts.push({
        at: sentence.start + since,
        days: closedDays.days,
        text: `${closedDays.text} ${language === 'he' ? 'סגור' : 'closed'}`,
      });
    }
  }
  // A time without a day before the first one with a day is the general rule that the days' times make
  // exceptions to ("check-out is until 11:00. On Saturdays, late check-out until 14:00"): it stays.
  const firstWithDay = Math.min(...facts.filter((fact) => fact.days.length > 0).map((fact) => fact.at));
  const withDays = Number.isFinite(firstWithDay)
    ? facts.filter((fact) => fact.days.length > 0 || fact.at < firstWithDay)
    : facts;
  const asked = askedDays.length > 0 ? withDays.filter((fact) => fact.days.some((day) => askedDays.includes(day))) : [];
  return (asked.length > 0 ? asked : withDays).sort((a, b) => a.at - b.at).map((fact) => fact.text);
}

/** The weekdays a question names ("ביום שישי", "on Friday"). */
export const daysAskedIn = (question: string): number[] => dayFacts(question, 'en').days;

const UNITS: readonly [RegExp, string, string][] = [
  [/^(?:working|business)\s+days?$|^ימי\s+עסקים$/iu, 'ימי עסקים', 'business days'],
  [/^minutes?$|^דקות$/iu, 'דקות', 'minutes'],
  [/^hours?$|^שעות$/iu, 'שעות', 'hours'],
  [/^days?$|^ימים$/iu, 'ימים', 'days'],
  [/^weeks?$|^שבועות$/iu, 'שבועות', 'weeks'],
  [/^months?$|^חודשים$/iu, 'חודשים', 'months'],
];
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  שניים: 2,
  שתיים: 2,
  שני: 2,
  שתי: 2,
  שלוש: 3,
  שלושה: 3,
  ארבע: 4,
  ארבעה: 4,
  חמש: 5,
  חמישה: 5,
  שש: 6,
  שישה: 6,
  שבע: 7,
  שבעה: 7,
  שמונה: 8,
  תשע: 9,
  תשעה: 9,
  עשר: 10,
  עשרה: 10,
  עשרים: 20,
  שלושים: 30,
};
const DURATION =
  /(\d+|[a-z]+|[\u05D0-\u05EA]+)[\s-]+((?:working|business)\s+days?|minutes?|hours?|days?|weeks?|months?|ימי\s+עסקים|דקות|שעות|ימים|שבועות|חודשים)/giu;

/** "two working days" → "2 ימי עסקים", "שלושה ימי עסקים" → "3 business days"; "שעה וחצי" → "an hour and a half". */
export function restateDurations(text: string, language: FactLanguage): string[] {
  const facts: string[] = [];
  for (const match of text.matchAll(DURATION)) {
    const count = /^\d+$/.test(match[1]!)
      ? Number(match[1])
      : (NUMBER_WORDS[match[1]!.toLowerCase().replace(/^[ובלמה]/u, '')] ?? NUMBER_WORDS[match[1]!.toLowerCase()]);
    const unit = UNITS.find(([pattern]) => pattern.test(match[2]!));
    if (count === undefined || !unit) continue;
    facts.push(`${count} ${language === 'he' ? unit[1] : unit[2]}`);
  }
  if (language === 'en' && /שעה וחצי/u.test(text)) facts.push('an hour and a half');
  if (language === 'en' && /חצי שעה/u.test(text)) facts.push('half an hour');
  if (language === 'he' && /\ban hour and a half\b/iu.test(text)) facts.push('שעה וחצי');
  if (language === 'he' && /\bhalf an hour\b/iu.test(text)) facts.push('חצי שעה');
  return facts;
}

/** A street address and the town after it ("22 Carmel Avenue, Haifa"), as written: names are not translated. */
function restatePlaces(text: string): string[] {
  return answerSpans('place', text).map((span) => {
    const after = text.slice(span.index + span.text.length);
    const town = /^,\s*([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?|[\u05D0-\u05EA]+(?:\s+[\u05D0-\u05EA]+)?)(?=[,.;]|$)/u.exec(
      after,
    )?.[1];
    // A Hebrew street is written before its number ("ברחוב הרצל 45 ברחובות"): take the number, leave the proclitic.
    const number = /[\u05D0-\u05EA]/u.test(span.text)
      ? (/^\s+\d+[\u05D0-\u05EA]?(?![\d:])/u.exec(after)?.[0] ?? '')
      : '';
    const street = span.text.trim().replace(/^[ובלמה]{1,2}(?=רחוב|רח'|שדרות|שד'|דרך)/u, '');
    return `${street}${number}${town && !number ? `, ${town}` : ''}`;
  });
}

/** The facts of the asked-for kind in `text`, written for a reader of `language`; none when they cannot be carried across. */
export function restateFacts(kind: AnswerKind | null, text: string, language: FactLanguage, question = ''): string[] {
  const unique = (facts: string[]) => [...new Set(facts.map((fact) => fact.trim()).filter(Boolean))];
  switch (kind) {
    case 'price':
      return unique(answerSpans('price', text).map((span) => restatePriceList(text, span, language)));
    case 'time':
      return unique(restateTimes(text, language, daysAskedIn(question)));
    case 'duration':
      return unique(restateDurations(text, language));
    case 'place':
      return unique(restatePlaces(text));
    case 'phone':
    case 'email':
    case 'year':
      return unique(answerSpans(kind, text).map((span) => span.text));
    case 'name':
      return unique(answerSpans('name', text).map((span) => span.text.replace(/^["״“”„]|["״“”]$/gu, '')));
    default:
      return [];
  }
}
