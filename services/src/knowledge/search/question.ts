import { detectLanguage } from '@kesher/contracts';
import { searchTokens, termVariants, type TermForm, type TermVariant } from '@kesher/contracts/rules/search-terms';
import { answerKindOf, type AnswerKind } from './answer-kinds.js';
import { BILINGUAL_GROUPS } from './bilingual-lexicon.js';

/** A searchable form of a question word and how much a match on it is trusted (1 = the word as asked). */
export interface SearchForm {
  term: string;
  factor: number;
}

export interface QuestionWord {
  word: string;
  /** The word as the visitor wrote it (normalised, not folded): a loanword is compared across scripts by it. */
  token?: string;
  forms: SearchForm[];
  /** The word only says what kind of answer is wanted ("phone", "open", "כמה"): a sentence holding that kind of answer covers it. */
  cueOf: AnswerKind | null;
  /** Not a word of the question: terms that usually sit beside the asked-for kind of answer ("street" for a place). */
  hint: boolean;
  /** A verb of buying or booking ("book", "rent", "לשכור"): in a price question it names the deal, not the item. */
  transaction?: true;
  /** Part of "late", "at the last minute", "on the same day", "ברגע האחרון": said in a text as "less than 24 hours before". */
  shortNotice?: true;
}

export interface AnalysedQuestion {
  question: string;
  language: 'he' | 'en' | 'other';
  kind: AnswerKind | null;
  words: QuestionWord[];
}

/** How far each kind of form is trusted; retrieval and the answer engine share these. */
export const FORM_FACTOR: Record<TermForm | 'synonym' | 'translation', number> = {
  exact: 1,
  prefix: 0.8,
  inflection: 0.7,
  spelling: 0.55,
  synonym: 0.7,
  translation: 0.85,
};
/** Hint words count for retrieval only, and little. */
export const HINT_FACTOR = 0.5;

const termsOf = (word: string, forms: readonly TermForm[] = ['exact', 'prefix', 'inflection']) =>
  searchTokens(word).flatMap((token) => termVariants(token).filter((variant) => forms.includes(variant.form)));

interface LexiconGroup {
  members: { term: string; hebrew: boolean; forms: TermVariant[] }[];
}

const HEBREW = /[\u05D0-\u05EA]/;

/** The lexicon with every member under its search forms, built once. */
const lexicon: LexiconGroup[] = BILINGUAL_GROUPS.map((group) => ({
  members: group.map((word) => ({ term: word, hebrew: HEBREW.test(word), forms: termsOf(word) })),
}));

/**
 * Each search form of the lexicon → the groups it is in, with the first of the group's members that has
 * it: a question word finds its groups by its own forms instead of by reading all ~720 groups (about 2 ms
 * a question, most of retrieval's own CPU, before this index).
 */
const lexiconIndex = new Map<string, { group: number; member: number }[]>();
lexicon.forEach((group, g) =>
  group.members.forEach((member, m) => {
    for (const form of member.forms) {
      const entries = lexiconIndex.get(form.term) ?? [];
      const inGroup = entries.find((entry) => entry.group === g);
      if (!inGroup) entries.push({ group: g, member: m });
      lexiconIndex.set(form.term, entries);
    }
  }),
);

/** Words that say what kind of answer is wanted, by kind; a sentence holding that kind of answer covers them. */
const CUE_WORDS: Record<AnswerKind, string[]> = {
  phone: ['phone', 'telephone', 'call', 'number', 'whatsapp', 'טלפון', 'מספר', 'להתקשר', 'מתקשרים', 'התקשר', 'נייד'],
  email: ['email', 'mail', 'address', 'e', 'מייל', 'אימייל', 'דואל', 'כתובת'],
  price: [
    'price',
    'prices',
    'cost',
    'costs',
    'fee',
    'fees',
    'charge',
    'much',
    'pay',
    'מחיר',
    'מחירים',
    'עולה',
    'עולים',
    'עלה',
    'עלתה',
    'עלו',
    'עלות',
    'משלם',
    'משלמים',
    'תעריף',
  ],
  duration: ['long', 'quickly', 'fast', 'soon', 'take', 'takes', 'time', 'זמן', 'לוקח', 'נמשך'],
  year: ['year', 'שנה'],
  time: [
    'open',
    'opening',
    'hours',
    'time',
    'close',
    'closing',
    'פתוח',
    'פתוחים',
    'פתוחה',
    'שעות',
    'שעה',
    'סגור',
    'סגורים',
    // "Which days …?": the word only asks for weekdays.
    'day',
    'days',
    'יום',
    'ימים',
    'ימי',
  ],
  place: ['located', 'location', 'address', 'find', 'נמצא', 'נמצאים', 'נמצאת', 'ממוקם', 'ממוקמים', 'כתובת', 'מיקום'],
  quantity: ['many', 'number', 'age', 'old', 'מספר', 'גיל'],
  name: ['name', 'called', 'שם', 'נקרא'],
};
const cueTerms = Object.fromEntries(
  Object.entries(CUE_WORDS).map(([kind, words]) => [
    kind,
    new Set(words.flatMap((word) => termsOf(word, ['exact']).map((v) => v.term))),
  ]),
) as Record<AnswerKind, Set<string>>;

/** Words that sit beside each kind of answer in a text, searched (weakly) even when the question lacks them. */
const HINT_WORDS: Partial<Record<AnswerKind, string[]>> = {
  // A page's contact line ("Contact: hello@…", "צרו קשר: 04-…") often names neither a phone nor an e-mail.
  phone: ['call', 'phone', 'tel', 'contact', 'טלפון', 'להתקשר', 'התקשרו', 'למספר', 'קשר'],
  email: ['email', 'mail', 'contact', 'מייל', 'דואל', 'קשר'],
  price: ['price', 'costs', 'shekels', 'nis', 'מחיר', 'עולה', 'שח'],
  time: ['open', 'hours', 'closed', 'פתוח', 'שעות', 'סגור'],
  place: [
    'street',
    'road',
    'avenue',
    'lane',
    'boulevard',
    'address',
    'located',
    'find',
    'רחוב',
    'שדרות',
    'דרך',
    'כתובת',
    'נמצאים',
  ],
  duration: ['minutes', 'hours', 'days', 'דקות', 'שעות', 'ימים'],
};

/**
 * Words that carry the asking, not the subject: "What happens if I cancel late?", "Can I bring back paint I
 * bought?", "מה כדאי ללבוש?". Texts rarely repeat them, so kept they would count as subject words no
 * passage has and sink the sentence that answers. Dropped as written (not their inflections), only from questions.
 */
const QUESTION_FILLER = new Set(
  [
    // English
    'happen',
    'happens',
    'happened',
    'bring',
    'bought',
    'buy',
    'get',
    'getting',
    'go',
    'going',
    'come',
    'coming',
    'use',
    'using',
    'make',
    'made',
    'see',
    'look',
    'looking',
    'give',
    'put',
    'keep',
    'let',
    'say',
    'says',
    'ask',
    'try',
    'there',
    'still',
    'really',
    'actually',
    'possible',
    'allowed',
    'option',
    'options',
    'way',
    'kind',
    'type',
    'anything',
    'something',
    'exactly',
    'usually',
    'normally',
    'typically',
    'currently',
    'now',
    'ever',
    'already',
    'ok',
    'okay',
    'sure',
    'else',
    'happy',
    'wondering',
    'interested',
    'question',
    'mean',
    'means',
    'work',
    'works',
    'own',
    'per',
    // Hebrew (folded: final letters as plain letters)
    'להביא',
    'מביאימ',
    'מביא',
    'לקבל',
    'מקבלימ',
    'מקבל',
    'לקנות',
    'קונימ',
    'קניתי',
    'לקחת',
    'לוקחימ',
    'לבוא',
    'באימ',
    'משהו',
    'מישהו',
    'פשוט',
    'באמת',
    'בערכ',
    'כדאי',
    'מומלצ',
    'אופציה',
    'אפשרות',
    'ניתנ',
    'לדעת',
    'שאלה',
    'רציתי',
    'לשאול',
    'מעוניינ',
    'מעוניינת',
    'אשמח',
    'אמור',
    'אמורה',
    'אמורימ',
    'חייב',
    'חייבת',
    'חייבימ',
    'קורה',
    'יקרה',
    'בדרכ',
    'כלל',
    'משלי',
    'בעצמי',
    'שוב',
    'עכשיו',
    'כרגע',
  ].flatMap((word) =>
    termVariants(word)
      .slice(0, 1)
      .map((variant) => variant.term),
  ),
);

/**
 * Verbs of the deal itself: "How much does it cost to book the meeting room?", "כמה עולה לשכור לוקר?". A
 * price list rarely repeats them ("Meeting room: 120 ILS an hour"), so in a price question one no sentence
 * has is not an item the knowledge lacks. Kept as words (a text may say "rent"), only marked.
 */
const TRANSACTION_WORDS = new Set(
  [
    'book',
    'booking',
    'reserve',
    'rent',
    'rental',
    'hire',
    'order',
    'לשכור',
    'להשכיר',
    'להזמין',
    'להירשם',
    'לשריין',
    // What a deal includes is asked of the item, it is no item itself ("מה כוללת הארוחה העסקית וכמה היא עולה?").
    'include',
    'includes',
    'כולל',
    'כוללת',
    'כוללים',
  ].map((word) => termVariants(word)[0]!.term),
);

/**
 * How visitors say they act late ("What happens if I cancel late / on the same day / at the last minute?");
 * a policy says it by a count ("less than 24 hours before", "פחות מ־12 שעות מראש"), sharing no word with them.
 */
const SHORT_NOTICE_ASKED =
  /\b(?:late|last[\s-]minute|same[\s-]day|short notice)\b|(?:^|\s)(?:מאוחר|באיחור|ברגע האחרון|באותו היום|ביום עצמו|בהתראה קצרה)(?=\s|$|[?.!,])/giu;

/**
 * An age said with a number ("my 7-year-old son", "aged 8", "לילד בן 8", "בגיל 5"): a price list says "children
 * aged 5 to 18" or "עד גיל 12", never the visitor's number, so the phrase is searched as the word "age" alone.
 */
const AGE_ASKED =
  /\b(?:aged\s+)?\d{1,2}[\s-]*(?:years?|yrs?)[\s-]*old\b|\baged\s+\d{1,2}\b|(?<=^|\s)(?:[ולש]?(?:בן|בת)|ב?גיל)\s+\d{1,2}(?=\s|$|[?.!,])/giu;

function formsOf(variants: readonly TermVariant[]): SearchForm[] {
  const forms: SearchForm[] = [];
  const byTerm = new Map<string, SearchForm>();
  const add = (term: string, factor: number) => {
    const existing = byTerm.get(term);
    if (!existing) {
      const form = { term, factor };
      forms.push(form);
      byTerm.set(term, form);
    } else existing.factor = Math.max(existing.factor, factor);
  };
  for (const variant of variants) add(variant.term, FORM_FACTOR[variant.form]);
  const own = new Set(variants.filter((v) => v.form !== 'spelling').map((v) => v.term));
  const hebrew = variants.length > 0 && HEBREW.test(variants[0]!.term);
  // The groups holding one of the word's own forms, in the lexicon's order, each with its first such member.
  const hits = new Map<number, number>();
  for (const term of own)
    for (const { group, member } of lexiconIndex.get(term) ?? [])
      hits.set(group, Math.min(hits.get(group) ?? member, member));
  for (const [g, m] of [...hits].sort((a, b) => a[0] - b[0])) {
    const group = lexicon[g]!;
    const hit = group.members[m]!;
    for (const member of group.members) {
      if (member === hit) continue;
      const factor = member.hebrew === hebrew ? FORM_FACTOR.synonym : FORM_FACTOR.translation;
      for (const form of member.forms) add(form.term, factor * FORM_FACTOR[form.form]);
    }
  }
  return forms;
}

/**
 * What the knowledge module understands of a question: its words (stop words gone) with every form they
 * may take in a text — inflections, spellings, synonyms and translations from the bilingual lexicon — the
 * kind of answer it asks for, and which of its words only name that kind.
 */
export function analyseQuestion(question: string): AnalysedQuestion {
  const kind = answerKindOf(question);
  const words: QuestionWord[] = [];
  const shortNotice = new Set([...question.matchAll(SHORT_NOTICE_ASKED)].flatMap((match) => searchTokens(match[0])));
  for (const token of searchTokens(question.replace(AGE_ASKED, (age) => (HEBREW.test(age) ? ' גיל ' : ' age ')))) {
    const variants = termVariants(token);
    if (variants.length === 0 || words.some((word) => word.word === variants[0]!.term)) continue;
    const cueOf = kind && variants.some((v) => v.form !== 'spelling' && cueTerms[kind].has(v.term)) ? kind : null;
    if (!cueOf && QUESTION_FILLER.has(variants[0]!.term)) continue;
    const transaction = TRANSACTION_WORDS.has(variants[0]!.term) ? { transaction: true as const } : {};
    const late = shortNotice.has(token) ? { shortNotice: true as const } : {};
    words.push({
      word: variants[0]!.term,
      token,
      forms: formsOf(variants),
      cueOf,
      hint: false,
      ...transaction,
      ...late,
    });
  }
  const hints = kind ? HINT_WORDS[kind] : undefined;
  if (hints && words.length > 0) {
    const forms = hints.flatMap((hint) => termsOf(hint, ['exact']).map((v) => ({ term: v.term, factor: HINT_FACTOR })));
    words.push({ word: `#${kind}`, forms, cueOf: kind, hint: true });
  }
  return { question, language: detectLanguage(question), kind, words };
}
