import { detectLanguage, estimateTokens, redirectMarker } from '@kesher/contracts';
import { type AnswerKind, type Evidence, findEvidence, restateFacts } from '../knowledge/index.js';
import type { AnswerDelta, AnswerLanguage, AnswerProvider, AnswerRequest } from './answer-provider.port.js';
import { bestSalesPage, showsBuyingIntent } from './sales-pages.js';
import { applyBuiltinAutomation } from '../automation/index.js';

/** The fixed phrases of the engine; the knowledge supplies every fact. */
const phrases = {
  en: {
    noAnswer:
      "I couldn't find an answer to that in the information I have. Please try rephrasing the question, or contact us directly.",
    quotedIn: { he: 'This is what our information says (in Hebrew):', en: '', other: '' },
    /** A fact restated from a text in the other language: "According to our information (written in Hebrew), the price is 35 ILS." */
    restated: (from: 'he' | 'en', kind: AnswerKind, facts: string[]) =>
      `According to our information (written in ${from === 'he' ? 'Hebrew' : 'English'}), ${factNames.en[kind]} ${facts.length > 1 || kind === 'time' ? 'are' : 'is'} ${facts.join('; ')}.`,
    /** Before the quoted sentence under several restated facts, whose qualifiers ("on weekends") only it keeps. */
    original: 'In the original:',
    visit: 'You can continue here:',
  },
  he: {
    noAnswer: 'לא מצאתי תשובה לשאלה הזו במידע שברשותי. אפשר לנסח את השאלה מחדש או לפנות אלינו ישירות.',
    quotedIn: { en: 'זה מה שכתוב במידע שלנו (באנגלית):', he: '', other: '' },
    restated: (from: 'he' | 'en', kind: AnswerKind, facts: string[]) =>
      `לפי המידע שלנו (שכתוב ב${from === 'he' ? 'עברית' : 'אנגלית'}), ${factNames.he[kind]}: ${facts.join('; ')}.`,
    original: 'כך כתוב במקור:',
    visit: 'אפשר להמשיך כאן:',
  },
} as const;

const factNames: Record<'en' | 'he', Record<AnswerKind, string>> = {
  en: {
    price: 'the price',
    phone: 'the phone number',
    email: 'the e-mail address',
    time: 'the hours',
    duration: 'the time it takes',
    place: 'the address',
    year: 'the year',
    quantity: 'the number',
    name: 'the name',
  },
  he: {
    price: 'המחיר',
    phone: 'מספר הטלפון',
    email: 'כתובת המייל',
    time: 'השעות',
    duration: 'משך הזמן',
    place: 'הכתובת',
    year: 'השנה',
    quantity: 'המספר',
    name: 'השם',
  },
};

const phrasesFor = (language: AnswerLanguage) => (language === 'he' ? phrases.he : phrases.en);

/** The engine's "not in my knowledge" answers, in every language it speaks (the answer evaluation reads them). */
export const noAnswerTexts: readonly string[] = [phrases.en.noAnswer, phrases.he.noAnswer];

export interface ComposedAnswer {
  text: string;
  /** The passage quoted, if any: the answer's one source. */
  evidence: Evidence | null;
}

/**
 * The whole answer: the quoted sentences, and in sales mode the redirect command. When the sentences are
 * in the other language than the question, the answer gives their facts of the asked-for kind in the
 * question's language instead (a price, times, an address — restate-facts.ts); when the question asks for
 * nothing such a fact answers (yes or no, "what is included"), the sentences are quoted after one line
 * in the question's language saying which language they are in. Sources are not
 * written into the text: the run records the quoted passage as its source and the chat shows it once, as a
 * link for a crawled page and as the file's name otherwise.
 */
export function composeAnswerWithEvidence(
  request: Pick<AnswerRequest, 'question' | 'language' | 'passages' | 'assistant'>,
): ComposedAnswer {
  const words = phrasesFor(request.language);
  // The owner's curated answer to this question wins over every passage (issue 26); it is quoted whole.
  const owners = request.passages.find((passage) => passage.curated);
  const evidence: Evidence | null = owners
    ? { passage: owners, sentences: [owners.text], language: detectLanguage(owners.text), score: 1, kind: null }
    : findEvidence(request.question, request.passages);
  if (!evidence) return { text: words.noAnswer, evidence: null };
  const quote = evidence.sentences.join(' ');
  const crosses =
    request.language !== 'other' && evidence.language !== 'other' && evidence.language !== request.language;
  const facts =
    crosses && evidence.kind
      ? restateFacts(evidence.kind, quote, request.language as 'he' | 'en', request.question)
      : [];
  const leadIn = request.language === 'other' ? '' : words.quotedIn[evidence.language];
  const parts = [
    facts.length > 0 && evidence.kind
      ? // Several facts lose what tells them apart ("650 ILS on weekdays, 820 ILS on weekends"): the sentence follows.
        words.restated(evidence.language as 'he' | 'en', evidence.kind, facts) +
        (facts.length > 1 ? `\n${words.original}\n${quote}` : '')
      : leadIn
        ? `${leadIn}\n${quote}`
        : quote,
  ];
  if (request.assistant.salesMode.enabled && showsBuyingIntent(request.question)) {
    const page = bestSalesPage(request.question, request.passages, request.assistant.salesPages);
    if (page) parts.push(`${words.visit}\n${redirectMarker(page)}`);
  }
  return { text: parts.join('\n\n'), evidence };
}

export const composeAnswer = (
  request: Pick<AnswerRequest, 'question' | 'language' | 'passages' | 'assistant'>,
): string => composeAnswerWithEvidence(request).text;

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
        const automated = await applyBuiltinAutomation({
          request,
          behaviour: request.behaviour,
          knowledge: text,
          found: evidence !== null,
        });
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
