import { describe, expect, it } from 'vitest';
import { evaluateCuratedMatching } from './curated-eval.js';
import { createCuratedMatcher } from './curated-match.js';

const answers = [
  { qaId: 'qa_haircut', question: 'How much does a haircut cost?', answer: 'A haircut is 80 ILS.' },
  { qaId: 'qa_saturday', question: 'האם אתם פתוחים בשבת?', answer: 'בשבת אנחנו סגורים.' },
];

describe('curated answers: matching a visitor question to the owner’s question', () => {
  const match = createCuratedMatcher(answers);

  it('takes paraphrases, other word order, Hebrew prefixes and the other language', () => {
    expect(match('What is the price of a haircut?')?.qa.qaId).toBe('qa_haircut');
    expect(match('מה המחיר של התספורת?')?.qa.qaId).toBe('qa_haircut');
    expect(match('בשבת אתם פתוחים?')?.qa.qaId).toBe('qa_saturday');
    expect(match('Are you open on Saturday?')?.qa.qaId).toBe('qa_saturday');
  });

  it('does not take a question that shares words but asks something else', () => {
    expect(match('How much does a manicure cost?')).toBeNull();
    expect(match('How long does a haircut take?')).toBeNull();
    expect(match('האם אתם פתוחים בשישי?')).toBeNull();
    expect(match('Where are you located?')).toBeNull();
  });

  it('meets precision ≥ 0.95 and recall ≥ 0.85 on the labelled set (≥ 40 pairs, half near-misses)', () => {
    const report = evaluateCuratedMatching();
    expect(report.pairs).toBeGreaterThanOrEqual(40);
    expect(report.nearMisses).toBeGreaterThanOrEqual(report.pairs / 2);
    expect(report.precision).toBeGreaterThanOrEqual(0.95);
    expect(report.recall).toBeGreaterThanOrEqual(0.85);
  });
});
