import { estimateTokens, redirectMarker } from '@kesher/contracts';
import type { RetrievedPassage } from '@kesher/projections/knowledge/knowledge.queries';
import { queryWords, searchTokens, termVariants } from '@kesher/projections/knowledge/search-terms';
import type { AnswerDelta, AnswerLanguage, AnswerProvider, AnswerRequest } from './answer-provider.port.js';
import { bestSalesPage, showsBuyingIntent } from './sales-pages.js';

/** The fixed phrases of the engine; the knowledge supplies every fact. */
const phrases = {
  en: {
    noAnswer: "I couldn't find an answer to that in the information I have. Please try rephrasing the question, or contact us directly.",
    source: 'Source',
    sources: 'Sources',
    visit: 'You can continue here:',
  },
  he: {
    noAnswer: 'לא מצאתי תשובה לשאלה הזו במידע שברשותי. אפשר לנסח את השאלה מחדש או לפנות אלינו ישירות.',
    source: 'מקור',
    sources: 'מקורות',
    visit: 'אפשר להמשיך כאן:',
  },
} as const;

const phrasesFor = (language: AnswerLanguage) => (language === 'he' ? phrases.he : phrases.en);

/** Passages below this rank are not quoted: the top few carry the answer when there is one. */
const PASSAGES_READ = 3;
const MAX_SENTENCES = 3;
/** A sentence must share this share of the question's words to count as answering it. */
const MIN_COVERAGE = 0.4;

interface Sentence {
  text: string;
  passage: RetrievedPassage;
  matched: Set<number>;
  rank: number;
}

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The terms of a sentence under every form the search would index it with. */
const termsOf = (text: string) => new Set(searchTokens(text).flatMap((token) => termVariants(token).map((v) => v.term)));

/**
 * Picks the sentences that answer the question: those covering enough of its words, best first (more
 * words covered, then the better passage, then the earlier sentence), at most three, in reading order.
 */
export function groundedSentences(question: string, passages: readonly RetrievedPassage[]): Sentence[] {
  const words = queryWords(question);
  if (words.length === 0) return [];
  const needed = Math.max(1, Math.ceil(words.length * MIN_COVERAGE));
  const candidates: Sentence[] = [];
  passages.slice(0, PASSAGES_READ).forEach((passage, passageRank) => {
    sentencesOf(passage.text).forEach((text, index) => {
      const terms = termsOf(text);
      const matched = new Set(words.flatMap((word, w) => (word.variants.some((v) => terms.has(v.term)) ? [w] : [])));
      if (matched.size >= needed) candidates.push({ text, passage, matched, rank: passageRank * 1000 + index });
    });
  });
  const chosen = candidates.sort((a, b) => b.matched.size - a.matched.size || a.rank - b.rank).slice(0, MAX_SENTENCES);
  return chosen.sort((a, b) => a.rank - b.rank);
}

function citation(passages: readonly RetrievedPassage[], language: AnswerLanguage): string {
  const names = [...new Set(passages.map((p) => (p.sourceUrl ? `${p.filename} (${p.sourceUrl})` : p.filename)))];
  const words = phrasesFor(language);
  return `${names.length > 1 ? words.sources : words.source}: ${names.join(', ')}`;
}

/** The whole answer as text: quoted knowledge, its sources, and in sales mode the redirect command. */
export function composeAnswer(request: Pick<AnswerRequest, 'question' | 'language' | 'passages' | 'assistant'>): string {
  const words = phrasesFor(request.language);
  const sentences = groundedSentences(request.question, request.passages);
  if (sentences.length === 0) return words.noAnswer;
  const parts = [sentences.map((s) => s.text).join(' '), citation(sentences.map((s) => s.passage), request.language)];
  if (request.assistant.salesMode.enabled && showsBuyingIntent(request.question)) {
    const page = bestSalesPage(request.passages);
    if (page) parts.push(`${words.visit}\n${redirectMarker(page)}`);
  }
  return parts.join('\n\n');
}

/**
 * The built-in grounded engine (offline, deterministic): it answers only with sentences quoted from the
 * retrieved knowledge, cites where they came from, and says plainly when the knowledge has no answer.
 * It never writes a fact of its own. The text is streamed word by word, like a model would.
 */
export function createBuiltinProvider(): AnswerProvider {
  return {
    name: 'builtin',
    async *answer(request): AsyncIterable<AnswerDelta> {
      const text = composeAnswer(request);
      for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
        if (request.signal?.aborted) return;
        yield { kind: 'text', text: piece };
      }
      const promptText = request.question + request.passages.map((p) => p.text).join('\n');
      yield { kind: 'usage', promptTokens: estimateTokens(promptText), completionTokens: estimateTokens(text) };
    },
  };
}
