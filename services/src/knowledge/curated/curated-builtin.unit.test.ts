import { describe, expect, it } from 'vitest';
import { composeAnswerWithEvidence } from '../../chat/builtin.provider.js';
import type { RetrievedPassage } from '../search/retrieve.js';
import { curatedPassage } from './curated-lookup.js';

const owners = curatedPassage({
  qa: { qaId: 'qa_1', question: 'How much does a haircut cost?', answer: 'A haircut costs 80 ILS.' },
  confidence: 0.9,
});
const file: RetrievedPassage = {
  fileId: 'f1',
  filename: 'prices.txt',
  sourceUrl: null,
  section: null,
  text: 'A haircut costs 60 ILS (2019 price list).',
  score: 3,
};
const assistant = (salesMode = false) => ({
  name: 'Salon',
  instructions: '',
  salesMode: { enabled: salesMode, salesPrompt: '' },
  salesPages: [
    { url: 'https://salon.example/book', title: 'Book a haircut', category: 'booking' as const, relevanceScore: 0.9 },
  ],
});

describe('the built-in engine with a curated answer (issue 26)', () => {
  it("answers with the owner's text whole, citing it, over a passage that says otherwise", () => {
    const composed = composeAnswerWithEvidence({
      question: 'What is the price of a haircut?',
      language: 'en',
      passages: [owners, file],
      assistant: assistant(),
    });
    expect(composed.text).toBe('A haircut costs 80 ILS.');
    expect(composed.evidence?.passage.fileId).toBe('qa_1');
  });

  it('says in which language the answer is written when the visitor asked in the other one', () => {
    const composed = composeAnswerWithEvidence({
      question: 'כמה עולה תספורת?',
      language: 'he',
      passages: [owners],
      assistant: assistant(),
    });
    expect(composed.text).toBe('זה מה שכתוב במידע שלנו (באנגלית):\nA haircut costs 80 ILS.');
  });

  it('still redirects in Sales Mode', () => {
    const composed = composeAnswerWithEvidence({
      question: 'I want to book a haircut, how much is it?',
      language: 'en',
      passages: [owners],
      assistant: assistant(true),
    });
    expect(composed.text.startsWith('A haircut costs 80 ILS.')).toBe(true);
    expect(composed.text).toContain('https://salon.example/book');
  });
});
