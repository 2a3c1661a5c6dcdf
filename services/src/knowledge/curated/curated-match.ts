import { analyseQuestion, type AnalysedQuestion, type QuestionWord } from '../search/question.js';

/** An owner's curated answer (issue 26), as the engines match it. */
export interface CuratedAnswer {
  qaId: string;
  question: string;
  answer: string;
}

export interface CuratedMatch {
  qa: CuratedAnswer;
  /** 0–1: how surely the visitor asked the curated question. */
  confidence: number;
}

/** Tuning of the match; the defaults are what the labelled set (curated-pairs.ts) was measured with. */
export interface CuratedMatchTuning {
  /** Below this the curated answer is not used. */
  threshold: number;
  /** Weight of the curated question's words found in the visitor's (against the visitor's found in it). */
  curatedSide: number;
  /** A word that only names the kind of answer ("price", "כמה", "open") counts this much beside a word of substance. */
  cueWeight: number;
}

export const defaultCuratedTuning: CuratedMatchTuning = { threshold: 0.72, curatedSide: 0.6, cueWeight: 0.5 };

/** How well two question words stand for each other: the best form they share, trusted as both forms are. */
function wordSimilarity(a: QuestionWord, b: QuestionWord): number {
  // Two words that both name the same kind of answer ("cost" and "how much") say the same thing.
  if (a.cueOf && a.cueOf === b.cueOf) return 1;
  let best = 0;
  for (const form of a.forms) {
    const other = b.forms.find((candidate) => candidate.term === form.term);
    if (other) best = Math.max(best, Math.min(1, form.factor * other.factor * 1.25));
  }
  return best;
}

const substance = (question: AnalysedQuestion) => question.words.filter((word) => !word.hint && !word.cueOf);

/** How many of `from`'s words of substance `to` does not say in any form. */
function unmatched(from: AnalysedQuestion, to: AnalysedQuestion): number {
  const targets = to.words.filter((word) => !word.hint);
  return substance(from).filter((word) => Math.max(0, ...targets.map((target) => wordSimilarity(word, target))) < 0.5)
    .length;
}

/** The share of `from`'s words (weighted) that `to` also says. */
function coverage(from: AnalysedQuestion, to: AnalysedQuestion, tuning: CuratedMatchTuning): number {
  const words = from.words.filter((word) => !word.hint);
  const targets = to.words.filter((word) => !word.hint);
  if (words.length === 0) return 0;
  let total = 0;
  let found = 0;
  for (const word of words) {
    const weight = word.cueOf ? tuning.cueWeight : 1;
    total += weight;
    found += weight * Math.max(0, ...targets.map((target) => wordSimilarity(word, target)));
  }
  return found / total;
}

/**
 * How surely `asked` means the curated question: both ways round, the share of each one's words the other
 * says, in any of their forms (Hebrew prefixes and suffixes, English endings, spellings, synonyms, and the
 * other language's words from the bilingual lexicon). Word order does not matter. Two questions asking for
 * different kinds of answer (a price and opening hours) never match, whatever words they share.
 */
export function curatedSimilarity(
  asked: AnalysedQuestion,
  curated: AnalysedQuestion,
  tuning: CuratedMatchTuning = defaultCuratedTuning,
): number {
  if (asked.kind && curated.kind && asked.kind !== curated.kind) return 0;
  const curatedFound = coverage(curated, asked, tuning);
  const askedFound = coverage(asked, curated, tuning);
  // A word of substance of the curated question the visitor did not say may be a rephrasing ("near" for
  // "at"), but not when the visitor said another word of substance instead: "the price of a haircut" is
  // not "the price of a manicure". At most a third of them may be missing at all.
  const missingCurated = unmatched(curated, asked);
  if (
    missingCurated > 0 &&
    (unmatched(asked, curated) > 0 || missingCurated > Math.floor(substance(curated).length / 3))
  )
    return 0;
  return tuning.curatedSide * curatedFound + (1 - tuning.curatedSide) * askedFound;
}

/** A matcher over one assistant's curated answers: their questions are analysed once. */
export function createCuratedMatcher(
  answers: readonly CuratedAnswer[],
  tuning: CuratedMatchTuning = defaultCuratedTuning,
) {
  const analysed = answers.map((qa) => ({ qa, question: analyseQuestion(qa.question) }));
  return (question: string): CuratedMatch | null => {
    const asked = analyseQuestion(question);
    let best: CuratedMatch | null = null;
    for (const { qa, question: curated } of analysed) {
      const confidence = curatedSimilarity(asked, curated, tuning);
      if (confidence >= tuning.threshold && (!best || confidence > best.confidence)) best = { qa, confidence };
    }
    return best;
  };
}

/** The best curated answer for a question, or null below the threshold. */
export const matchCurated = (question: string, answers: readonly CuratedAnswer[], tuning?: CuratedMatchTuning) =>
  createCuratedMatcher(answers, tuning)(question);
