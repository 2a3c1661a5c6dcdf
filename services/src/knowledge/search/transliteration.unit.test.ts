import { describe, expect, it } from 'vitest';
import { composeAnswerWithEvidence } from '../../chat/builtin.provider.js';
import { findEvidence } from '../answers/answer-evidence.js';
import { analyseQuestion } from './question.js';
import { sameWordAcrossScripts } from './transliteration.js';

describe('words written in the other script', () => {
  it('meets loanwords and names with their English spelling, with a proclitic or a plural', () => {
    for (const [hebrew, english] of [
      ['יוגה', 'yoga'],
      ['ריטריט', 'retreat'],
      ['טויוטה', 'Toyota'],
      ['מזרחי', 'Mizrahi'],
      ['אספרסו', 'espresso'],
      ['הסטודיו', 'studio'],
      ['לוקרים', 'lockers'],
      ['שוודי', 'Swedish'],
      ['מסאז', 'massage'],
    ])
      expect(sameWordAcrossScripts(hebrew!, english!), `${hebrew} ~ ${english}`).toBe(true);
  });

  it('does not meet words with other consonants, too few of them, or in one script', () => {
    expect(sameWordAcrossScripts('מחיר', 'market')).toBe(false);
    expect(sameWordAcrossScripts('גם', 'gum')).toBe(false);
    expect(sameWordAcrossScripts('תור', 'tour')).toBe(false);
    expect(sameWordAcrossScripts('yoga', 'yoga')).toBe(false);
    expect(sameWordAcrossScripts('יוגה', 'יוגה')).toBe(false);
  });
});

describe('question analysis', () => {
  it('drops the words that only carry the asking', () => {
    expect(analyseQuestion('What happens if I cancel late?').words.map((w) => w.word)).toEqual(['cancel', 'late']);
    expect(analyseQuestion('מה כדאי ללבוש לטיפול?').words.map((w) => w.word)).toEqual(['ללבוש', 'לטיפול']);
  });

  it('reads a Hebrew question without a question word as yes or no, unless it opens with the kind it wants', () => {
    expect(analyseQuestion('ארוחת הבוקר כלולה במחיר?').kind).toBeNull();
    expect(analyseQuestion('מחיר לילה בסוויטה?').kind).toBe('price');
    expect(analyseQuestion('שעות הפתיחה בשישי?').kind).toBe('time');
    expect(analyseQuestion('כמה עלה הגשר?').kind).toBe('price');
  });

  it('asks for a number when it asks for an age', () => {
    expect(analyseQuestion('מאיזה גיל אפשר להגיע לספא?').kind).toBe('quantity');
    expect(analyseQuestion('What is the minimum age for the spa?').kind).toBe('quantity');
  });
});

describe('the answer engine across scripts', () => {
  const passage = (text: string) => ({
    fileId: 'f1',
    filename: 'retreat.html',
    sourceUrl: null,
    section: null,
    text,
    score: 1,
  });

  const assistant = { name: 'Studio', instructions: '', salesMode: { enabled: false, salesPrompt: '' } };

  it('answers a Hebrew question naming a loanword from the English page with the price of what was asked', () => {
    const composed = composeAnswerWithEvidence({
      question: 'כמה עולה הריטריט בחדר משותף?',
      language: 'he',
      passages: [
        passage(
          'The retreat costs 1,450 ILS per person in a shared room, or 1,900 ILS in a single room. The bus leaves at 8:00.',
        ),
      ],
      assistant,
    });
    // "1,450" is one amount: the thousands separator does not cut the sentence into clauses.
    expect(composed.text).toContain('1,450 ש"ח');
    expect(composed.text).not.toContain('1,900');
  });

  it('quotes the sentence under several restated prices, which only it tells apart', () => {
    const composed = composeAnswerWithEvidence({
      question: 'כמה עולה הריטריט?',
      language: 'he',
      passages: [passage('The retreat costs 1,450 ILS in a shared room or 1,900 ILS in a single room.')],
      assistant,
    });
    expect(composed.text).toContain('1,450 ש"ח; 1,900 ש"ח');
    expect(composed.text).toContain(
      'כך כתוב במקור:\nThe retreat costs 1,450 ILS in a shared room or 1,900 ILS in a single room.',
    );
  });

  it('still says it has no answer when the loanword is not in the knowledge', () => {
    const evidence = findEvidence('כמה עולה סדנת קרמיקה?', [
      passage('The retreat costs 1,450 ILS per person in a shared room.'),
    ]);
    expect(evidence).toBeNull();
  });
});
