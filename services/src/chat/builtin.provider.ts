import { estimateTokens, redirectMarker } from '@kesher/contracts';
import { findEvidence, type Evidence } from '../knowledge/answers/answer-evidence.js';
import type { AnswerDelta, AnswerLanguage, AnswerProvider, AnswerRequest } from './answer-provider.port.js';
import { bestSalesPage, showsBuyingIntent } from './sales-pages.js';
import { applyBuiltinAutomation } from '../automation/builtin-automation.js';

/** The fixed phrases of the engine; the knowledge supplies every fact. */
const phrases = {
  en: {
    noAnswer: "I couldn't find an answer to that in the information I have. Please try rephrasing the question, or contact us directly.",
    quotedIn: { he: 'This is what our information says (in Hebrew):', en: '', other: '' },
    visit: 'You can continue here:',
  },
  he: {
    noAnswer: 'לא מצאתי תשובה לשאלה הזו במידע שברשותי. אפשר לנסח את השאלה מחדש או לפנות אלינו ישירות.',
    quotedIn: { en: 'זה מה שכתוב במידע שלנו (באנגלית):', he: '', other: '' },
    visit: 'אפשר להמשיך כאן:',
  },
} as const;

const phrasesFor = (language: AnswerLanguage) => (language === 'he' ? phrases.he : phrases.en);

/** The engine's "not in my knowledge" answers, in every language it speaks (the answer evaluation reads them). */
export const noAnswerTexts: readonly string[] = [phrases.en.noAnswer, phrases.he.noAnswer];

export interface ComposedAnswer {
  text: string;
  /** The passage quoted, if any: the answer's one source. */
  evidence: Evidence | null;
}

/**
 * The whole answer: the quoted sentences (led, when they are in another language than the question, by
 * one line in the question's language saying so), and in sales mode the redirect command. Sources are not
 * written into the text: the run records the quoted passage as its source and the chat shows it once, as a
 * link for a crawled page and as the file's name otherwise.
 */
export function composeAnswerWithEvidence(request: Pick<AnswerRequest, 'question' | 'language' | 'passages' | 'assistant'>): ComposedAnswer {
  const words = phrasesFor(request.language);
  const evidence = findEvidence(request.question, request.passages);
  if (!evidence) return { text: words.noAnswer, evidence: null };
  const quote = evidence.sentences.join(' ');
  const leadIn = request.language === 'other' ? '' : words.quotedIn[evidence.language];
  const parts = [leadIn ? `${leadIn}\n${quote}` : quote];
  if (request.assistant.salesMode.enabled && showsBuyingIntent(request.question)) {
    const page = bestSalesPage(request.question, request.passages, request.assistant.salesPages);
    if (page) parts.push(`${words.visit}\n${redirectMarker(page)}`);
  }
  return { text: parts.join('\n\n'), evidence };
}

export const composeAnswer = (request: Pick<AnswerRequest, 'question' | 'language' | 'passages' | 'assistant'>): string => composeAnswerWithEvidence(request).text;

/**
 * The built-in grounded engine (offline, deterministic): it answers only with sentences quoted from the
 * knowledge module's best evidence for the question (findEvidence), names the passage it quoted, and says
 * plainly when the knowledge has no answer. It never writes a fact of its own. The text is streamed word
 * by word, like a model would.
 */
export function createBuiltinProvider(): AnswerProvider {
  return {
    name: 'builtin',
    async *answer(request): AsyncIterable<AnswerDelta> {
      const composed = composeAnswerWithEvidence(request);
      let { text, evidence } = composed;
      // The owner's guidelines and workflows, applied to the grounded answer (automation/builtin-automation.ts).
      if (request.behaviour) {
        const automated = await applyBuiltinAutomation({ request, behaviour: request.behaviour, knowledge: text, found: evidence !== null });
        text = automated.text;
        if (!automated.keptKnowledge) evidence = null;
      }
      for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
        if (request.signal?.aborted) return;
        yield { kind: 'text', text: piece };
      }
      yield { kind: 'cited', passages: evidence ? [evidence.passage] : [] };
      const promptText = request.question + request.passages.map((p) => p.text).join('\n');
      yield { kind: 'usage', promptTokens: estimateTokens(promptText), completionTokens: estimateTokens(text) };
    },
  };
}
