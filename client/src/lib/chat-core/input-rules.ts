import { chatInputProblem, estimateTokens } from '@kesher/contracts/rules/chat';
import { countWords, limits } from '@kesher/contracts/rules/limits';

export type CounterLevel = 'ok' | 'warning' | 'error';

export interface InputCheck {
  words: number;
  tokens: number;
  wordLevel: CounterLevel;
  tokenLevel: CounterLevel;
  empty: boolean;
  /** Which limit the text breaks (the word limit is checked first, as chatInputProblem does). */
  problem: { kind: 'words'; count: number } | { kind: 'tokens'; count: number } | null;
}

const level = (value: number, warnAbove: number, errorAbove: number): CounterLevel =>
  value > errorAbove ? 'error' : value > warnAbove ? 'warning' : 'ok';

export const WORDS_WARN = 80;
export const TOKENS_WARN = 320;

/**
 * The input's counters and validity, the same in the owner's chat and the visitor's (spec part 1 §5,
 * part 2 §5): 'n/100 words' (warning > 80, error > 100), '~n/400 tokens' (> 320, > 400).
 */
export function checkInput(text: string): InputCheck {
  const words = countWords(text);
  const tokens = estimateTokens(text);
  const broken = chatInputProblem(text);
  return {
    words,
    tokens,
    wordLevel: level(words, WORDS_WARN, limits.chatInputWords),
    tokenLevel: level(tokens, TOKENS_WARN, limits.chatInputTokens),
    empty: text.trim() === '',
    problem: !broken
      ? null
      : words > limits.chatInputWords
        ? { kind: 'words', count: words }
        : { kind: 'tokens', count: tokens },
  };
}

/** Send is possible only with text, nothing in flight and a valid input (§5). */
export const canSend = (check: InputCheck, active: boolean) => !check.empty && !active && check.problem === null;

/** The check's problem in the page's language (the English texts are exactly chatInputProblem's). */
export const inputProblemText = (check: InputCheck, t: (key: string, options: { count: number }) => string) =>
  check.problem ? t(check.problem.kind === 'words' ? 'wordLimit' : 'tokenLimit', { count: check.problem.count }) : null;
