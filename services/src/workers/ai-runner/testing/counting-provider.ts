import type { AnswerProvider } from '../../../chat/answer-provider.port.js';

/** A model that notes every question it is asked and answers each at once: proves whether it was asked at all. */
export function countingProvider() {
  const asked: string[] = [];
  const provider: AnswerProvider = {
    name: 'counting',
    async *answer(request) {
      asked.push(request.question);
      yield { kind: 'text', text: 'An answer.' };
    },
  };
  return { provider, asked };
}
