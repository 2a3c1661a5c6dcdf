import { detectLanguage } from '@kesher/contracts';
import { searchTokens, termVariants } from '@kesher/contracts/rules/search-terms';
import {
  answerSpans,
  answerStrength,
  asksForDays,
  asksForMonths,
  dayAnswerStrength,
  daysMentioned,
  monthAnswerStrength,
  weekdayOf,
  MISSING_ANSWER_FACTOR,
  type AnswerKind,
} from '../search/answer-kinds.js';
import { analyseQuestion, FORM_FACTOR, type AnalysedQuestion, type QuestionWord } from '../search/question.js';
import { sameWordAcrossScripts } from '../search/transliteration.js';
import type { RetrievedPassage } from '../search/retrieve.js';

/** The sentences that answer a question, all from one passage, in reading order. */
export interface Evidence {
  passage: RetrievedPassage;
  sentences: string[];
  /** The language the quoted sentences are written in. */
  language: 'he' | 'en' | 'other';
  /** How well the best sentence answers the question (0–1), for tuning and tests. */
  score: number;
  /** The kind of answer the question asked for (a price, a time …), which the quoted sentences hold. */
  kind: AnswerKind | null;
}

/** Tuning of the evidence choice; the defaults are what the labelled answer set was measured with. */
export interface EvidenceTuning {
  /** Below this the best sentence does not answer the question: the engine says so instead. */
  minScore: number;
  /**
   * The bar for a sentence that holds the asked-for kind of answer itself (a price, a phone number, a clock
   * time) and matches the question's subject: a question asked in other words than the text's ("copy a
   * house key" → "key cutting … 15 ILS") covers less of itself, yet the sentence plainly answers it. Not for
   * a price whose item the knowledge does not name (see `unknownItemFactor`), which keeps `minScore`.
   */
  minScoreWithAnswer: number;
  /** A neighbouring sentence joins the answer when it scores at least this share of the best one. */
  neighbourShare: number;
  maxSentences: number;
  /** Weight of a question word that only names the kind of answer ("phone", "open"). */
  cueWeight: number;
  /** How much a cue word counts when the sentence holds the asked-for kind of answer but not the word itself. */
  cueByAnswerOnly: number;
  /** How much a cue word counts in a sentence without the asked-for kind of answer ("located" in "cache files are located…"). */
  cueWithoutAnswer: number;
  /** How much the title of a sentence's section counts as part of the sentence (FAQ questions as headings). */
  sectionFactor: number;
  /** How much a section's title counts for the passage's first sentence, in a question asking for a kind of answer. */
  headingFactor: number;
  /** A passage's opening line that is a title, not a sentence, counts this much: a title names a topic, it answers nothing. */
  titleFactor: number;
  /**
   * In a sentence holding the asked-for kind of answer, a question word found elsewhere in its passage
   * counts this much: "the center's phone number" is answered by "call 04-…" in the center's page.
   */
  contextFactor: number;
  /**
   * The best sentence is in another language than the question: a sentence in the question's language
   * scoring at least this share of it answers instead (a bilingual site says the same on both pages).
   */
  ownLanguageShare: number;
  /** How much more a price question's word that no sentence has weighs (it names an item the knowledge lacks). */
  unknownItemFactor: number;
  /**
   * How much a word no sentence has weighs in a question about the business's phone, e-mail, address or
   * hours: it most likely names the business otherwise ("the hosts", "the potters").
   */
  unknownBusinessWordFactor: number;
  /** How much a question word counts when only its transliteration is found (ריטריט ~ "retreat", Toyota ~ טויוטה). */
  transliterationFactor: number;
  /**
   * A sentence that is itself a question (an FAQ's question written in the text, "What should I wear?")
   * answers nothing: it counts this much, and the sentence after it gains its words at `sectionFactor`.
   */
  askedFactor: number;
  /** How much a number in the question weighs when no sentence writes it. */
  unknownNumberFactor: number;
}

export const defaultEvidenceTuning: EvidenceTuning = {
  minScore: 0.45,
  minScoreWithAnswer: 0.3,
  neighbourShare: 0.75,
  maxSentences: 3,
  cueWeight: 1.5,
  cueByAnswerOnly: 0.6,
  cueWithoutAnswer: 0.5,
  sectionFactor: 0.5,
  headingFactor: 0.85,
  titleFactor: 0.7,
  contextFactor: 0.35,
  ownLanguageShare: 0.8,
  unknownItemFactor: 2,
  unknownBusinessWordFactor: 0.5,
  transliterationFactor: 0.7,
  askedFactor: 0.5,
  unknownNumberFactor: 0.25,
};

/** Kinds of answer that belong to the business as a whole rather than to one of its items. */
const BUSINESS_KINDS: ReadonlySet<AnswerKind | null> = new Set<AnswerKind | null>(['phone', 'email', 'place', 'time']);

interface Candidate {
  passage: number;
  index: number;
  text: string;
  /** Each term of the sentence with how directly it is written there (1 = as written). */
  terms: ReadonlyMap<string, number>;
  /** How clearly it holds the asked-for kind of answer (answerStrength). */
  carries: number;
  score: number;
  /** Question words (not cues) the sentence matches. */
  contentMatches: number;
}

/**
 * Sentence ends as the chunker cuts them: . ! ? … and sof pasuq, with closing quotes; and line ends. A run
 * of dots is no end: a price list's dot leaders ("Poster A1 ........ 85 ₪") tie an item to its price; nor is
 * a title's abbreviation ("led by Dr. Noa Friedman"), which would cut a name from its sentence.
 */
const SENTENCE_END = /(?<=(?<!\.)(?<!\b(?:Dr|Mr|Mrs|Ms|Prof|St))[.!?…׃](?:["'”’»)\]]*))\s+|\n+/u;

export const sentencesOf = (text: string): string[] =>
  text
    .split(SENTENCE_END)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence))
    .reduce<string[]>((sentences, sentence) => {
      // A short fragment opening with an amount ("75 ILS, free for members.") finishes the sentence before
      // it (the workshop it prices), as does a price a PDF put on the line under its item.
      if (sentences.length > 0 && /^[₪$€£]?\d/u.test(sentence) && sentence.split(/\s+/).length <= 6)
        sentences[sentences.length - 1] += ` ${sentence}`;
      else sentences.push(sentence);
      return sentences;
    }, []);

/**
 * Where a sentence listing several items divides into them: commas, semicolons, a table row's cells, dashes.
 * A comma inside a number ("1,450 ILS") is a thousands separator, not a clause's end.
 */
const CLAUSE_END = /(?<=[;|])\s*|(?<=,)(?!\d)\s*|\s+[-–—]\s+/u;

/**
 * The part of a sentence that ties the asked-for answer to the thing asked about: "croissants 12 ILS
 * each, sourdough loaf 28 ILS, rye loaf 26 ILS" asked for the sourdough loaf's price gives "sourdough
 * loaf 28 ILS". Only a sentence stating the kind of answer more than once is cut. A list's first clause
 * often names its topic ("The center is open Sunday to Thursday 9–17, and on Friday 9–13"), so a later
 * clause wins when it has a question word the first lacks (the weightiest such clause; a tie keeps the
 * sentence); else the first clause, when it has any. The cut runs on to the next clause when the amount
 * comes after the item.
 */
function focusOn(text: string, kind: AnswerKind, wordsIn: (clause: string) => Map<number, number>): string {
  if (answerSpans(kind, text).length < 2) return text;
  const clauses = text.split(CLAUSE_END).filter((clause) => clause.trim() !== '');
  if (clauses.length < 2) return text;
  // A list: at least two of its clauses state an answer each ("7:00 to 14:00, and on Saturday closed" is one).
  if (clauses.filter((clause) => answerSpans(kind, clause).length > 0).length < 2) return text;
  const found = clauses.map(wordsIn);
  const weightOf = (words: Map<number, number>) => [...words.values()].reduce((sum, weight) => sum + weight, 0);
  const later = found.map((words, c) =>
    c > 0 && [...words.keys()].some((word) => !found[0]!.has(word)) ? weightOf(words) : 0,
  );
  const top = Math.max(...later);
  let at: number;
  if (top > 0) {
    if (later.filter((weight) => weight === top).length > 1) return text;
    at = later.indexOf(top);
  } else if (found[0]!.size > 0) at = 0;
  else return text;
  let end = at;
  while (end < clauses.length - 1 && answerSpans(kind, clauses.slice(at, end + 1).join(' ')).length === 0) end++;
  const focused = clauses
    .slice(at, end + 1)
    .join(' ')
    .replace(/^[\s,;|:]+|[\s,;|:]+$/gu, '');
  return answerSpans(kind, focused).length > 0 ? focused : text;
}

/** A short line without a sentence's closing punctuation: a heading that extraction kept in the text. */
const isTitle = (text: string) => !/[.!?…׃:]["'”’»)\]]*$/u.test(text) && text.split(/\s+/).length <= 10;

/** How a policy says "late": by a count of hours or days before ("less than 24 hours", "פחות מ־12 שעות מראש"). */
const SHORT_NOTICE_SAID =
  /\b(?:less than|under|within) \d+\s*(?:hours?|days?)|\bafter \d{1,2}[:.]\d{2}|פחות מ[־-]?\s*\d+\s*(?:שעות|ימים)|ביטול מאוחר/iu;

/** A sentence asking rather than telling: an FAQ's question kept in the text. */
const isAsked = (text: string) => /\?["'”’»)\]]*$/u.test(text);

/**
 * The texts whose terms were worked out lately, each with its terms and how directly each is written
 * (FORM_FACTOR): a pure function of the text, kept because every question works out the terms of every
 * sentence of its five passages again, and the same passages come back for the questions people ask. In
 * the 200-visitor bench this analysis was a third of the server's busy time. The least recently used text
 * goes first; at 20,000 sentences the cache holds a few megabytes.
 */
const writtenTerms = new Map<string, ReadonlyMap<string, number>>();
const WRITTEN_TERMS_KEPT = 20_000;

function writtenTermsOf(text: string): ReadonlyMap<string, number> {
  const kept = writtenTerms.get(text);
  if (kept) {
    writtenTerms.delete(text);
    writtenTerms.set(text, kept);
    return kept;
  }
  const terms = new Map<string, number>();
  for (const token of searchTokens(text)) {
    for (const variant of termVariants(token)) {
      const factor = FORM_FACTOR[variant.form];
      if ((terms.get(variant.term) ?? 0) < factor) terms.set(variant.term, factor);
    }
  }
  writtenTerms.set(text, terms);
  if (writtenTerms.size > WRITTEN_TERMS_KEPT) writtenTerms.delete(writtenTerms.keys().next().value!);
  return terms;
}

/** The terms of a text as kept (read only: a sentence's own terms are not copied for every question). */
const termsOf = (text: string): ReadonlyMap<string, number> => writtenTermsOf(text);

/** `into` with the terms of `text` scaled by `scale`, wherever they weigh more than what it holds. */
function mergeTerms(into: Map<string, number>, text: string, scale = 1): Map<string, number> {
  for (const [term, factor] of writtenTermsOf(text)) {
    const scaled = factor * scale;
    if ((into.get(term) ?? 0) < scaled) into.set(term, scaled);
  }
  return into;
}

/**
 * How well a sentence's terms match one question word, 0 when absent. A match is as good as the less
 * direct of its two sides: בבית and הבית meet on בית as surely as בית meets הבית.
 */
function matchOf(word: QuestionWord, terms: ReadonlyMap<string, number>): number {
  let best = 0;
  for (const form of word.forms) {
    const written = terms.get(form.term);
    if (written !== undefined) best = Math.max(best, Math.min(form.factor, written));
  }
  return best;
}

/**
 * Chooses what to quote for a question from the retrieved passages, or null when nothing answers it.
 *
 * Every sentence of the passages is scored by the share of the question it covers: each question word
 * weighs by how rare it is among these sentences (a word none of them has weighs most, so a question about
 * something the knowledge never mentions covers little), times how directly it matched (as asked, inflected,
 * a synonym, a translation). A word that only names the kind of answer wanted ("phone", "open", "כמה") is
 * covered by a sentence holding that kind of answer, and a sentence without it counts for less when the
 * question asks for one (MISSING_ANSWER_FACTOR). The best sentence must reach `minScore`.
 *
 * The answer is a window around the best sentence in its own passage: neighbours scoring close to it
 * join; then, when the window still lacks the asked-for kind of answer, the next sentence joins if it
 * holds it (the sentence after "they prayed in the synagogue" that names the synagogue). Sentences from
 * other passages never join: an answer quotes one place, never fragments of several files.
 */
export function findEvidence(
  question: string | AnalysedQuestion,
  passages: readonly RetrievedPassage[],
  tuning: EvidenceTuning = defaultEvidenceTuning,
): Evidence | null {
  const analysis = typeof question === 'string' ? analyseQuestion(question) : question;
  const { kind } = analysis;
  const words = analysis.words.filter((word) => !word.hint);
  if (words.length === 0 || passages.length === 0) return null;
  // A short question asking for a kind of answer without naming it ("Where is the clinic?") still wants
  // one: the kind counts as a word of its own. With more words to go by, they decide, and the kind only
  // discounts sentences without it.
  const namesKind = words.some((word) => word.cueOf);
  const kindWord =
    kind !== null && !namesKind && words.length <= 1 ? { word: `#${kind}`, forms: [], cueOf: kind, hint: true } : null;
  if (kindWord) words.push(kindWord);

  // "Which days do you roast?" is answered by weekdays, not by a year that makes a sentence hold a "time".
  const daysAsked = kind === 'time' && asksForDays(analysis.question);
  // "Which months are you open?" is answered by months ("from April to October").
  const monthsAsked = kind === 'time' && asksForMonths(analysis.question);
  const candidates: Candidate[] = passages.flatMap((passage, p) =>
    sentencesOf(passage.text).map((text, index, all) => {
      // A heading names the item of the line right under it ("Accountant" / "$79 per month."): the first
      // sentence under it takes its words almost as its own, the later ones as a topic.
      const heading = index === 0 && kind !== null ? tuning.headingFactor : tuning.sectionFactor;
      const terms = passage.section ? mergeTerms(new Map(termsOf(text)), passage.section, heading) : termsOf(text);
      // The answer under an FAQ's question written in the text: the question names its subject, like a heading.
      const asked = index > 0 && isAsked(all[index - 1]!) && !isAsked(text);
      return {
        passage: p,
        index,
        text,
        terms: asked ? mergeTerms(new Map(terms), all[index - 1]!, tuning.sectionFactor) : terms,
        carries:
          kind === null
            ? 0
            : daysAsked
              ? dayAnswerStrength(text)
              : monthsAsked
                ? monthAnswerStrength(text)
                : answerStrength(kind, text),
        score: 0,
        contentMatches: 0,
      };
    }),
  );
  if (candidates.length === 0) return null;

  // The context a sentence holding the answer draws on: its passage; for the business's phone, e-mail,
  // address or hours, every retrieved passage of its file ("the studio's address" is the address line of the
  // studio's document, whose name is in another passage of it).
  const wholeFile = BUSINESS_KINDS.has(kind);
  const contextOf = passages.map((passage) =>
    wholeFile ? passages.filter((other) => other.filename === passage.filename) : [passage],
  );
  const textOf = (passage: RetrievedPassage) =>
    passage.section ? `${passage.section}\n${passage.text}` : passage.text;
  const passageTerms = contextOf.map((context) => {
    if (context.length === 1) return termsOf(textOf(context[0]!));
    const terms = new Map<string, number>();
    for (const passage of context) mergeTerms(terms, textOf(passage));
    return terms;
  });
  // A weekday asked about is matched by a sentence covering it in any form: "Are you open on Wednesday?" by
  // "Sunday–Thursday 9:00–17:00", "ביום שישי" by a timetable's "ו' 8:30–14:00", any day by "daily".
  const askedDay = words.map((word) => (word.token ? weekdayOf(word.token) : null));
  const mentioned = askedDay.some((day) => day !== null)
    ? candidates.map((candidate) => daysMentioned(candidate.text))
    : [];
  const matches = candidates.map((candidate, c) =>
    words.map((word, w) => {
      if (word === kindWord) return candidate.carries;
      const day = askedDay[w];
      if (day !== null && day !== undefined && mentioned[c]!.has(day)) return 1;
      // "cancel late" is answered by "cancelled less than 24 hours in advance", which shares no word with it.
      const lexical = Math.max(
        matchOf(word, candidate.terms),
        word.shortNotice && SHORT_NOTICE_SAID.test(candidate.text) ? FORM_FACTOR.synonym : 0,
      );
      if (!word.cueOf)
        return candidate.carries === 1
          ? Math.max(lexical, tuning.contextFactor * matchOf(word, passageTerms[candidate.passage]!))
          : lexical;
      if (candidate.carries === 1) return lexical > 0 || kind === 'price' ? 1 : tuning.cueByAnswerOnly;
      // "located" in "cache files are located in…" names the kind of answer without giving one.
      if (candidate.carries > 0)
        return Math.max(lexical * tuning.cueWithoutAnswer, tuning.cueByAnswerOnly * candidate.carries);
      return lexical * tuning.cueWithoutAnswer;
    }),
  );
  // A question word no sentence has may be a loanword or a name written in the other script (transliteration.ts).
  const sentenceTokens = candidates.map((candidate) => searchTokens(candidate.text));
  const passageTokens = contextOf.map((context) => context.flatMap((passage) => searchTokens(passage.text)));
  words.forEach((word, w) => {
    if (word.cueOf || !word.token || matches.some((row) => row[w]! > 0)) return;
    const across = (tokens: readonly string[]) => tokens.some((token) => sameWordAcrossScripts(word.token!, token));
    const inPassage = passageTokens.map(across);
    candidates.forEach((candidate, c) => {
      if (across(sentenceTokens[c]!)) matches[c]![w] = tuning.transliterationFactor;
      else if (candidate.carries === 1 && inPassage[candidate.passage])
        matches[c]![w] = tuning.contextFactor * tuning.transliterationFactor;
    });
  });
  const weights = words.map((word, w) => {
    if (word.cueOf) return 0;
    // A word no sentence has weighs like the rarest one found: a question about something the knowledge
    // never mentions covers little, yet one paraphrased verb does not sink a sentence that has the rest.
    const df = Math.max(1, matches.filter((row) => row[w]! > 0).length);
    return Math.log(1 + candidates.length / (df + 0.5));
  });
  // The words naming the kind of answer weigh together as much as the question's weightiest word: in
  // "Where is the clinic?" the place matters as much as the clinic.
  const cues = words.filter((word) => word.cueOf).length;
  const cueWeight = Math.max(tuning.cueWeight, ...weights) / Math.max(1, cues);
  const found = (w: number) => matches.some((row) => row[w]! > 0);
  // A number the visitor gives ("a table for 8", "2 nights") is rarely written in the passage as they wrote it.
  const bareNumber = (word: QuestionWord) => /^\d+$/.test(word.word);
  let namesUnknownItem = false;
  words.forEach((word, w) => {
    if (word.cueOf) weights[w] = cueWeight;
    else if (!found(w) && bareNumber(word)) weights[w] = weights[w]! * tuning.unknownNumberFactor;
    // Asked the price of something none of the passages names ("a photography course" where only the
    // pottery courses have prices), the unknown word beside a known one names the item: a price found is
    // another item's. Unknown words away from the item ("… cost? I want to buy one") are left as they are.
    else if (kind === 'price' && !found(w) && word.transaction)
      // "to book", "to rent": the deal, not the item; a price list need not say it.
      weights[w] = weights[w]! * tuning.unknownBusinessWordFactor;
    else if (
      kind === 'price' &&
      !found(w) &&
      [w - 1, w + 1].some((n) => words[n] !== undefined && !words[n]!.cueOf && !words[n]!.transaction && found(n))
    ) {
      weights[w] = weights[w]! * tuning.unknownItemFactor;
      namesUnknownItem = true;
    } else if (kind !== null && kind !== 'price' && !found(w))
      // Asked for a phone, an address, hours, a number, a name …: a word no passage has most likely names the
      // business otherwise ("the hosts") or says what is asked in other words ("attend", "vacate").
      weights[w] = weights[w]! * tuning.unknownBusinessWordFactor;
  });
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  candidates.forEach((candidate, c) => {
    const covered = matches[c]!.reduce((sum, match, w) => sum + match * weights[w]!, 0) / totalWeight;
    const missing = kind === null ? 1 : 1 - (1 - MISSING_ANSWER_FACTOR[kind]) * (1 - candidate.carries);
    const title =
      candidate.index === 0 && isTitle(candidate.text)
        ? tuning.titleFactor
        : isAsked(candidate.text)
          ? tuning.askedFactor
          : 1;
    // A hair for the better-ranked passage, so that ties go to what retrieval found first.
    candidate.score = covered * missing * title + 0.01 * (1 - candidate.passage / passages.length);
    candidate.contentMatches = matches[c]!.filter((match, w) => match > 0 && !words[w]!.cueOf).length;
  });

  // A question naming what it is about ("How much does a kiln cost?") is not answered by a sentence
  // that names none of it, however clearly that sentence states a price.
  // A price belongs to an item: asked the price of something no sentence names ("an apron"), no price
  // answers. A phone number, an address, opening hours belong to the business, however the question names
  // it ("the potters' phone" where no sentence says "potters"): there only subject words the passages have
  // must be matched.
  const namesSubject = words.some((word, w) => !word.cueOf && (found(w) || !BUSINESS_KINDS.has(kind)));
  const answering = candidates.filter((candidate) => !namesSubject || candidate.contentMatches > 0);
  if (answering.length === 0) return null;
  let best = answering.reduce((a, b) => (b.score > a.score ? b : a));
  const bar = kind !== null && best.carries === 1 && !namesUnknownItem ? tuning.minScoreWithAnswer : tuning.minScore;
  if (best.score < bar) return null;
  // Evidence in the question's language, when nearly as good: a Hebrew question on a bilingual site is
  // answered from the Hebrew page.
  // It must say as much about the subject in its own words (not only by sitting in a page about it).
  const subjectWeight = (candidate: Candidate) =>
    words.reduce((sum, word, w) => sum + (word.cueOf ? 0 : matchOf(word, candidate.terms) * weights[w]!), 0);
  const languageOf = (candidate: Candidate) => detectLanguage(candidate.text);
  if (analysis.language !== 'other' && languageOf(best) !== analysis.language) {
    const own = answering.filter(
      (candidate) =>
        languageOf(candidate) === analysis.language && subjectWeight(candidate) >= subjectWeight(best) - 1e-9,
    );
    const ownBest = own.length > 0 ? own.reduce((a, b) => (b.score > a.score ? b : a)) : null;
    if (ownBest && ownBest.score >= Math.max(bar, tuning.ownLanguageShare * best.score)) best = ownBest;
  }

  const own = candidates.filter((candidate) => candidate.passage === best.passage);
  const at = (index: number) => own.find((candidate) => candidate.index === index);
  let first = best.index;
  let last = best.index;
  // A neighbour stating a price of its own (the next line of a price list) joins only when it is as much
  // about what was asked as the best sentence: the croissants' price never joins the sourdough loaf's.
  // The best sentence may hold the asked-for kind and match the subject only through its passage ("Where
  // can I park?" → the address line, on a page that says "park" in the next sentence): a neighbour that says
  // the subject itself, with at least a sign of the kind, joins it whatever its score.
  const saysSubject = (candidate: Candidate) =>
    subjectWeight(best) < 1e-9 && subjectWeight(candidate) > 0 && candidate.carries > 0;
  const joins = (candidate: Candidate | undefined) =>
    candidate !== undefined &&
    (candidate.score >= tuning.neighbourShare * best.score || saysSubject(candidate)) &&
    (candidate.contentMatches > 0 || words.every((word) => word.cueOf)) &&
    !(
      kind === 'price' &&
      best.carries === 1 &&
      candidate.carries === 1 &&
      subjectWeight(candidate) < subjectWeight(best) - 1e-9
    );
  while (last - first + 1 < tuning.maxSentences) {
    const before = at(first - 1);
    const after = at(last + 1);
    const takeAfter = joins(after) && (!joins(before) || after!.score >= before!.score);
    if (takeAfter) last++;
    else if (joins(before)) first--;
    else break;
  }
  const window = own.filter((candidate) => candidate.index >= first && candidate.index <= last);
  if (kind !== null && !window.some((candidate) => candidate.carries === 1)) {
    const next = at(last + 1);
    if (next?.carries === 1 && (next.contentMatches > 0 || kind === 'name')) window.push(next);
  }
  const wordsIn = (clause: string) => {
    const terms = termsOf(clause);
    const found = new Map<number, number>();
    words.forEach((word, w) => {
      const match = word.cueOf ? 0 : matchOf(word, terms);
      if (match > 0) found.set(w, match * weights[w]!);
    });
    return found;
  };
  const sentences = window.map((candidate) =>
    kind !== null && namesSubject ? focusOn(candidate.text, kind, wordsIn) : candidate.text,
  );
  return {
    passage: passages[best.passage]!,
    sentences,
    language: detectLanguage(sentences.join(' ')),
    score: best.score,
    kind,
  };
}
