import { normalizeForSearch } from '@kesher/contracts/rules/search-terms';

/**
 * The kind of answer a question asks for, read from its question words in English or Hebrew: a phone
 * number, an e-mail address, a price, a duration, a year, a time (hours, days), a place, a quantity or a
 * name. A yes/no question ("Are you open on Saturday?", "יש חנייה?") asks for none: any sentence that
 * covers it answers it.
 */
export type AnswerKind = 'phone' | 'email' | 'price' | 'duration' | 'year' | 'time' | 'place' | 'quantity' | 'name';

/** Hebrew question words, with or without the proclitics a visitor may put before them (ו־, ה־, ב־, ל־ …). */
const he = (words: string) => `(?:^| )[והבלמשכ]{0,3}(?:${words})(?= |$)`;

/** Question patterns, checked in this order on the normalised question. */
const KIND_PATTERNS: readonly [AnswerKind, RegExp][] = [
  ['email', new RegExp(`\\b(e ?mail|email address)\\b|${he('מייל|אימייל|דואל')}`)],
  [
    'phone',
    new RegExp(`\\b(phone|telephone|call|whatsapp)\\b|${he('טלפון|להתקשר|מתקשרים|מתקשר|התקשר|נייד|וואטסאפ|ווטסאפ')}`),
  ],
  [
    'price',
    new RegExp(
      `\\bhow much\\b|\\b(price|prices|cost|costs|fee|fees|charge)\\b|${he('כמה (?:זה |היא |הוא |הם |הן )?(?:עולה|עולים|עולות)|כמה עולה|כמה עולים|כמה עלה|כמה עלתה|כמה עלו|כמה משלמים|כמה משלם|מחיר|מחירים|עלות|תעריף')}`,
    ),
  ],
  ['duration', new RegExp(`\\bhow (long|quickly|fast|soon)\\b|${he('כמה זמן|תוך כמה|כמה דקות|כמה ימים|כמה שעות')}`)],
  [
    'year',
    new RegExp(
      `\\b(what|which) year\\b|\\bwhen was\\b.*\\b(founded|established|built|opened|started)\\b|${he('איזו שנה|איזה שנה')}`,
    ),
  ],
  [
    'time',
    new RegExp(
      `\\b(which|what) (days?|hours?|time|months?|season|dates?)\\b|${he('איזה|איזו|אילו') + ' (?:ימים|יום|ימי|שעות|שעה|חודשים|חודש|עונה|תאריך|תאריכים)'}|\\bwhen\\b|\\bwhat time\\b|\\b(hours|opening|closing)\\b|${he('מתי|עד מתי|איזו שעה|איזה שעה|שעות')}`,
    ),
  ],
  [
    'place',
    new RegExp(`\\bwhere\\b|\\b(address|located|location)\\b|${he('איפה|היכן|מאיפה|כתובת|כתובתכם|ממוקמים|ממוקם')}`),
  ],
  ['quantity', new RegExp(`\\bhow many\\b|\\bhow old\\b|\\b(what|which|minimum) age\\b|${he('כמה|גיל')}`)],
  [
    'name',
    new RegExp(`\\b(who|whom|whose|which)\\b|\\bwhat is the name\\b|${he('מי|מיהו|מיהי|איזה|איזו|אילו|מה שם|מה השם')}`),
  ],
];

/** Questions that open like these ask yes or no, whatever words follow. */
const YES_NO =
  /^(are|is|do|does|did|can|could|will|would|have|has|may|should)\b|^(האם|יש|אין|אפשר|מותר|אתם|את|אתה)( |$)/;

/**
 * A Hebrew question with no question word is asked as a statement with a question mark: "ארוחת הבוקר כלולה
 * במחיר?" asks yes or no, whatever kind of answer its words name. One that opens with the kind it wants
 * ("מחיר לילה בסוויטה?", "שעות הפתיחה בשישי?") still asks for it, unless a verb of including follows it
 * ("המחירים כוללים מע"מ?" asks yes or no).
 */
const HEBREW_STATEMENT_ASKED = new RegExp(
  `^(?=.*[\u05D0-\u05EA])(?!.*${he('כמה|מה|מתי|איפה|היכן|מאיפה|לאן|מי|מיהו|מיהי|איך|כיצד|איזה|איזו|אילו|למה|מדוע|עד מתי|גיל')})(?!(?:ה)?(?:מחיר|מחירי|מחירים|עלות|שעות|שעת|כתובת|טלפון|מספר|מייל|אימייל|דואל|מיקום)(?: (?!(?:כולל|כוללים|כוללת|כוללות|כלול|כלולה|כלולים)(?: |$))|$))\\S+ \\S+ \\S+`,
);

/**
 * A yes/no question with a second question joined to it ("Can you copy a key for me, and what does it
 * cost?") asks for what the second one asks: the yes is implied by the answer to it.
 */
const JOINED_QUESTION = / and (?=(?:how|what|when|where|which|who)\b)/;

export function answerKindOf(question: string): AnswerKind | null {
  const text = normalizeForSearch(question)
    .replace(/[^\p{L}\p{N}@]+/gu, ' ')
    .trim();
  const joined = text.split(JOINED_QUESTION)[1];
  if (YES_NO.test(text) && joined !== undefined) return kindOfQuestionText(joined);
  if (YES_NO.test(text) || HEBREW_STATEMENT_ASKED.test(text)) return null;
  return kindOfQuestionText(text);
}

function kindOfQuestionText(text: string): AnswerKind | null {
  for (const [kind, pattern] of KIND_PATTERNS) if (pattern.test(text)) return kind;
  return null;
}

const EN_MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const HE_MONTHS = 'ינואר|פברואר|מרץ|מרס|אפריל|מאי|יוני|יולי|אוגוסט|ספטמבר|אוקטובר|נובמבר|דצמבר';
const EN_NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand';
const HE_NUMBER_WORDS =
  'אחד|אחת|שניים|שתיים|שני|שתי|שלוש|שלושה|ארבע|ארבעה|חמש|חמישה|שש|שישה|שבע|שבעה|שמונה|תשע|תשעה|עשר|עשרה|עשרים|שלושים|מאה|מאות|אלף|אלפים';
const HE_PREFIX = '(?:^|[\\s(\\u05BE])[ובלמהשכ]{0,3}';
/** Currency written after an amount, and before one; ILS and NIS are how Israeli price lists write the shekel in English. */
const CURRENCY_AFTER = 'shekels?|nis|ils|₪|ש["״]ח|שקלים|שקל|dollars?|euros?|usd|eur|\\$';
const CURRENCY_BEFORE = '[₪$€£]|nis|ils|usd|eur';

/**
 * What a sentence that answers each kind contains: `strong` is the answer itself (a phone number, a price,
 * a clock time, a street address, a name), `weak` only a sign of it (a weekday for "when", "next to" or a
 * folder for "where"). Deliberately plain patterns over the raw sentence: they only decide between
 * sentences the words already matched, never find an answer on their own.
 */
const ENTITY_PATTERNS: Record<AnswerKind, { strong: RegExp; weak?: RegExp }> = {
  email: { strong: /[\w.+-]+@[\w-]+\.[\w.]+/ },
  phone: { strong: /(?<![\d.:])(?:\+?972[-\s]?|0)\d{1,2}[-\s]?\d{3}[-\s]?\d{3,4}(?![\d:])/ },
  price: {
    // An amount with its currency after it ("890 ILS", "24 shekels", "52 ₪", "180 ש״ח") or before it
    // ("₪48", "$129", "NIS 150"), in millions or thousands too ("14 מיליון ש"ח"). A bare number is not a price:
    // "250 g" and "15 people" sit beside prices.
    strong: new RegExp(
      `\\d[\\d,.]*\\s*(?:(?:million|thousand|מיליון|אלף)\\s+)?(?:${CURRENCY_AFTER})(?![a-z])|(?<![a-z])(?:${CURRENCY_BEFORE})\\s*\\d(?:[\\d,.]*\\d)?`,
      'iu',
    ),
    weak: new RegExp(
      `${HE_PREFIX}(?:חינם|חופשית|חופשי)|(?:ללא|בלי) (?:תשלום|עלות)|\\bfree\\b|\\bno (?:extra )?charge\\b|\\bcomplimentary\\b`,
      'iu',
    ),
  },
  duration: {
    strong: new RegExp(
      `\\d+\\s*(?:minutes?|hours?|days?|weeks?|months?|דקות|שעות|ימים|שבועות|חודשים)|\\b(?:${EN_NUMBER_WORDS}|a|an)[\\s-]+(?:working\\s+|business\\s+)?(?:minutes?|hours?|days?|weeks?|months?)|שעה וחצי|חצי שעה|ימי עסקים|${HE_PREFIX}(?:${HE_NUMBER_WORDS})\\s+(?:דקות|שעות|ימים|שבועות|חודשים)`,
      'iu',
    ),
    weak: /while you wait|\b(?:immediately|same day)\b|(?:מיד|באותו היום|למחרת)/iu,
  },
  year: { strong: /\b(1[5-9]\d{2}|20\d{2})\b/ },
  time: {
    strong: /\b\d{1,2}[:.]\d{2}\b|\b(1[5-9]\d{2}|20\d{2})\b/,
    // A weekday, a part of the day; or a deadline counted back from something ("up to 4 hours before the
    // class", "48 שעות מראש"), which is what "until when may I cancel?" asks for.
    weak: new RegExp(
      `(?:\\d+|\\b(?:an?|one|two|three|half an))\\s*(?:hours?|days?|weeks?|שעות|ימים|שבועות)\\s+(?:before|in advance|prior|מראש|לפני)|(?:^|\\s)(?:שעה|יום|שבוע|שעתיים|יומיים|חצי שעה)\\s+(?:אחת\\s+|אחד\\s+)?(?:לפני|מראש)|\\b(?:sundays?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|morning|evening|noon|midnight|daily)\\b|${HE_PREFIX}(?:יום|ימי|ימים)\\s|${HE_PREFIX}(?:ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת|בוקר|ערב|צהריים)`,
      'iu',
    ),
  },
  place: {
    strong: new RegExp(
      `\\b\\d+\\s+[A-Z][\\w']*(?:\\s+[A-Z][\\w']*)?\\s+(?:street|st|road|rd|lane|avenue|ave|boulevard|blvd|square|way)\\b|${HE_PREFIX}(?:רחוב|רח'|שדרות|שד')\\s+\\S+|${HE_PREFIX}דרך\\s+[\\u05D0-\\u05EA]\\S*(?=\\s+\\d)`,
      'iu',
    ),
    weak: new RegExp(
      `(?:^|\\s)(?:/[\\w.-]+){2,}|https?://\\S+|\\b(?:street|road|lane|avenue|building|floor|courtyard|next to|behind|opposite|directory|folder|at the (?:bottom|top)|on the screen)\\b|${HE_PREFIX}(?:קומה|מול|ליד|בניין|כיכר|תיקייה|תיקיית|בתחתית|בראש|מסך|במסך)(?=[\\s,])`,
      'iu',
    ),
  },
  quantity: {
    strong: new RegExp(`\\d|\\b(?:${EN_NUMBER_WORDS})\\b|${HE_PREFIX}(?:${HE_NUMBER_WORDS})(?=[\\s,.]|$)`, 'iu'),
  },
  name: {
    strong:
      /(?<=\S\s+)[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*|["״“”„][^"״“”„]{2,40}["״“”]|(?:^|\s)(?:הרב|הרבנית|ד["״]ר|דר|פרופ'|מר|גב'|החזן|השף|Dr\.?|Mr\.?|Mrs\.?|Ms\.?)\s+\S+/u,
  },
};

/** "Which days …?", "באילו ימים …?": a time question whose answer is weekdays, which a year does not give. */
const DAYS_ASKED = new RegExp(`\\b(?:which|what) days?\\b|${he('באילו|איזה|באיזה|אילו') + ' (?:ימים|יום|ימי)'}`);
const WEEKDAY =
  /\b(?:sundays?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|daily|weekdays?|weekends?)\b|(?:^|[\s(\u05BE])[ובלמהשכ]{0,3}(?:ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת|א'|ב'|ג'|ד'|ה'|ו')(?=[\s,.;:–-]|$)/iu;

export const asksForDays = (question: string) =>
  DAYS_ASKED.test(
    normalizeForSearch(question)
      .replace(/[^\p{L}\p{N}@]+/gu, ' ')
      .trim(),
  );

/** "Which months …?", "באילו חודשים …?", "what season": a time question answered by the names of months. */
const MONTHS_ASKED = new RegExp(
  `\\b(?:which|what) (?:months?|season)\\b|${he('באילו|איזה|באיזה|אילו|באיזו|איזו') + ' (?:חודשים|חודש|עונה)'}`,
);
// English months as names are capitalised: "you may bring" names none.
const MONTH = new RegExp(
  `\\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\\b|(?:^|[\\s(\u05BE])[ובלמהשכ]{0,3}(?:${HE_MONTHS})(?![\\u05D0-\\u05EA])`,
  'u',
);

export const asksForMonths = (question: string) =>
  MONTHS_ASKED.test(
    normalizeForSearch(question)
      .replace(/[^\p{L}\p{N}@]+/gu, ' ')
      .trim(),
  );

/** How clearly a sentence answers a question asking which months: a month's name is the answer, a season a sign of it. */
export const monthAnswerStrength = (sentence: string): number =>
  MONTH.test(sentence)
    ? 1
    : /\b(?:season|summer|winter|spring|autumn)\b|עונה|עונת|קיץ|חורף|אביב|סתיו/iu.test(sentence)
      ? 0.5
      : 0;

/**
 * How clearly a sentence answers a question asking which days: a weekday is the answer itself, a clock
 * time a sign of it, and a year alone nothing ("When we opened in 2016" does not say on which days).
 */
export const dayAnswerStrength = (sentence: string): number =>
  WEEKDAY.test(sentence) ? 1 : /\b\d{1,2}[:.]\d{2}\b/.test(sentence) ? 0.5 : 0;

/**
 * Every place a text states the kind of answer asked for (the strong pattern's matches, in order): the
 * prices of a price list's line, the times of an opening-hours sentence.
 */
export function answerSpans(kind: AnswerKind, text: string): { index: number; text: string }[] {
  const pattern = ENTITY_PATTERNS[kind].strong;
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  return [...text.matchAll(global)].map((match) => ({ index: match.index, text: match[0] }));
}

/**
 * A date answers "when" as a clock time does: a day of a month ("15 ביוני", "1–17 ביולי", "July 1", "5 May").
 * Not one of the time spans a sentence is cut at: "on Tuesday, 5 May, from 9:00 to 14:00" is one answer.
 */
const DATE = new RegExp(
  `\\d{1,2}(?:\\s*[–-]\\s*\\d{1,2})?\\s+(?:ב|של\\s+)?(?:${HE_MONTHS})(?![\\u05D0-\\u05EA])|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${EN_MONTHS})\\b|\\b(?:${EN_MONTHS})\\s+\\d{1,2}\\b`,
  'iu',
);

/** How clearly a sentence carries the kind of answer asked for: 1 the answer itself, 0.5 a sign of it, 0 neither. */
export function answerStrength(kind: AnswerKind, sentence: string): number {
  const patterns = ENTITY_PATTERNS[kind];
  if (patterns.strong.test(sentence) || (kind === 'time' && DATE.test(sentence))) return 1;
  return patterns.weak?.test(sentence) ? 0.5 : 0;
}

/**
 * How much a sentence without the asked-for kind of answer still counts: a sentence that matches the words
 * of "What is your phone number?" but holds no phone number ("the version number is written…") does not
 * answer it. The kinds that are easy to recognise are trusted most.
 */
export const MISSING_ANSWER_FACTOR: Record<AnswerKind, number> = {
  phone: 0.3,
  email: 0.3,
  price: 0.4,
  duration: 0.6,
  year: 0.5,
  time: 0.6,
  place: 0.6,
  quantity: 0.7,
  name: 0.8,
};

const WEEKDAYS_EN = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WEEKDAYS_HE = ['ראשון', 'שני', 'שלישי', 'רביעי', 'חמישי', 'שישי', 'שבת'];
const WEEKDAY_LETTERS = ['א', 'ב', 'ג', 'ד', 'ה', 'ו', 'ש'];
/**
 * A weekday however a text writes it: "Friday", "Fridays", "Fri", "ביום שישי", "בשבת", and the letters of a
 * Hebrew timetable ("א'–ה' 9:00–19:00, ו' 8:30–14:00"); two of them joined by a dash, "to" or "עד" are a range.
 */
const DAY_MENTION = new RegExp(
  `\\b(${WEEKDAYS_EN.join('|')})s?\\b|\\b(sun|mon|tue|tues|wed|thu|thur|thurs|fri|sat)\\b\\.?|(?:^|[\\s(,;|:])(?:[ובלה]{0,2}(?:יום|ימי)\\s+)?[ובלהמ]{0,2}(${WEEKDAYS_HE.join('|')})(?=[\\s,.;:?!)–-]|$)|(?<=^|[\\s(,;|:–-])[ובלמ]?(${WEEKDAY_LETTERS.join('|')})['׳’](?=[\\s,.;:)–-]|$)`,
  'giu',
);
const SHORT_EN = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const DAY_SPAN_BETWEEN = /^\s*(?:to|through|until|till|-|–|—|עד)\s*(?:ימי|יום)?\s*$/iu;
// "בכל יום ראשון" is every Sunday, not every day.
const EVERY_DAY =
  /\b(?:daily|every day|7 days a week|seven days a week)\b|כל יום(?!\s+(?:ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת|[א-ו]['׳]))|כל ימות השבוע|כל השבוע|בכל ימי השבוע/iu;

/** The weekdays (0 = Sunday) a text names, ranges spelled out ("Sunday–Thursday" is five days); "daily" is all seven. */
export function daysMentioned(text: string): Set<number> {
  const days = new Set<number>();
  if (EVERY_DAY.test(text)) for (let day = 0; day < 7; day++) days.add(day);
  const found = [...text.matchAll(DAY_MENTION)].map((match) => {
    const [, en, short, he, letter] = match;
    const day = en
      ? WEEKDAYS_EN.indexOf(en.toLowerCase())
      : short
        ? SHORT_EN.indexOf(short.toLowerCase().slice(0, 3))
        : he
          ? WEEKDAYS_HE.indexOf(he)
          : WEEKDAY_LETTERS.indexOf(letter!);
    return { day, start: match.index, end: match.index + match[0].length };
  });
  found.forEach((mention, i) => {
    if (mention.day < 0) return;
    days.add(mention.day);
    const next = found[i + 1];
    if (next && next.day > mention.day && DAY_SPAN_BETWEEN.test(text.slice(mention.end, next.start)))
      for (let day = mention.day; day <= next.day; day++) days.add(day);
  });
  return days;
}

/** The weekday a question word names ("שישי", "בשבת", "fridays"), if it names one. */
export function weekdayOf(word: string): number | null {
  const english = WEEKDAYS_EN.indexOf(word.toLowerCase().replace(/s$/u, ''));
  if (english >= 0) return english;
  const hebrew = WEEKDAYS_HE.findIndex((day) => new RegExp(`^[ובלהמ]{0,2}${day}$`, 'u').test(word));
  return hebrew >= 0 ? hebrew : null;
}
