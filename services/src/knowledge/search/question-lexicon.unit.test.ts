import { describe, expect, it } from 'vitest';
import { analyseQuestion, FORM_FACTOR } from './question.js';

const formsOf = (question: string) => analyseQuestion(question).words[0]!.forms;

describe('a question word takes the forms of every lexicon group it is in (search/question.ts)', () => {
  it('"night" (in two groups): its own form first, then each group\'s other members in the lexicon\'s order', () => {
    const forms = formsOf('night');
    const at = (term: string) => forms.findIndex((form) => form.term === term);
    expect(forms[0]).toEqual({ term: 'night', factor: FORM_FACTOR.exact });
    // "evening, night, ערב, לילה" comes before "night, nights, overnight, לילה, לילות" in the lexicon.
    for (const term of ['evening', 'ערב', 'לילה', 'overnight', 'לילות']) expect(at(term), term).toBeGreaterThan(0);
    expect(at('evening')).toBeLessThan(at('overnight'));
    expect(forms[at('evening')]!.factor).toBeCloseTo(FORM_FACTOR.synonym * FORM_FACTOR.exact);
    // A Hebrew member of both groups is a translation once, at its best factor.
    expect(forms.filter((form) => form.term === 'לילה')).toEqual([
      { term: 'לילה', factor: FORM_FACTOR.translation * FORM_FACTOR.exact },
    ]);
  });

  it('gives a word outside the lexicon its own forms alone', () => {
    expect(formsOf('zyxwvut').every((form) => form.term.startsWith('zyxw'))).toBe(true);
  });
});
