import { describe, expect, it } from 'vitest';
import { cleanText, detectLanguage } from './clean-text.js';

describe('cleanText', () => {
  it('folds ligatures and Hebrew presentation forms to plain letters', () => {
    expect(cleanText('ﬁle ﬂow \uFB2E')).toBe('file flow \u05D0\u05B7');
  });

  it('keeps at most one blank line between paragraphs and trims lines', () => {
    expect(cleanText('  a  \n\n\n\n  b\u2028c ')).toBe('a\n\nb\nc');
  });
});

describe('detectLanguage', () => {
  it('calls text Hebrew from a modest share of Hebrew letters', () => {
    expect(detectLanguage('המחיר של ה-iPhone 15 Pro Max בחנות שלנו הוא 4,999 ש"ח')).toBe('he');
  });

  it('calls English text English, other Latin-script text other, and letterless text other', () => {
    expect(detectLanguage('The shop is open from Sunday to Thursday and on Friday until two.')).toBe('en');
    expect(detectLanguage('La boulangerie ouvre du dimanche au jeudi, le vendredi jusqu’à midi.')).toBe('other');
    expect(detectLanguage('Магазин открыт с воскресенья по четверг.')).toBe('other');
    expect(detectLanguage('12 34 56')).toBe('other');
  });
});
