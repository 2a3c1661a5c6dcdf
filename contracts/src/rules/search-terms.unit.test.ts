import { describe, expect, it } from 'vitest';
import {
  normalizeForSearch,
  queryWords,
  searchTokens,
  stemEnglish,
  termVariants,
  toOrTsquery,
  toScopedTsquery,
  toTsvectorLiteral,
} from './search-terms.js';

const terms = (token: string) => termVariants(token).map((variant) => variant.term);

describe('normalizeForSearch', () => {
  it('drops niqqud and cantillation but keeps the letters', () => {
    expect(searchTokens('בְּרֵאשִׁ֖ית בָּרָ֣א')).toEqual(['בראשית', 'ברא']);
  });

  it('joins acronyms written with gershayim in any quote character', () => {
    for (const written of ['צה"ל', 'צה״ל', 'צה“ל', 'צה”ל']) expect(searchTokens(written)).toEqual(['צהל']);
    expect(searchTokens("ר' יהודה")).toEqual(['ר', 'יהודה']);
    expect(searchTokens("ג'ירפה")).toEqual(['גירפה']);
  });

  it('treats maqaf and punctuation as word separators and lowercases Latin', () => {
    expect(searchTokens('בית־הכנסת, Hello-World!')).toEqual(['בית', 'הכנסת', 'hello', 'world']);
  });

  it('folds compatibility forms (presentation forms, ligatures)', () => {
    expect(normalizeForSearch('ﬁle \uFB2A')).toBe('file שׁ'.normalize('NFKC').replace(/[\u0591-\u05C7]/g, ''));
  });

  it('drops possessive s and joins contractions', () => {
    expect(searchTokens("owner's don't")).toEqual(['owner', 'dont']);
  });
});

describe('termVariants for Hebrew', () => {
  it('meets the plene and the older spelling (doubled yod and vav)', () => {
    expect(terms('התיישבות')[0]).toBe(terms('התישבות')[0]);
    expect(terms('להתיישבות')).toContain(terms('התישבות')[0]);
  });

  it('folds final letters so that every form of a word meets', () => {
    expect(terms('שלום')).toContain('שלומ');
    expect(terms('ארץ')).toEqual(['ארצ']);
  });

  it('adds the forms without the usual one- to three-letter prefixes', () => {
    expect(termVariants('בבית').slice(0, 2)).toEqual([
      { term: 'בבית', exact: true, form: 'exact' },
      { term: 'בית', exact: false, form: 'prefix' },
    ]);
    expect(terms('והבית')).toEqual(expect.arrayContaining(['והבית', 'הבית', 'בית']));
    expect(terms('מהעיר')).toEqual(expect.arrayContaining(['מהעיר', 'העיר', 'עיר']));
    expect(terms('כשהגענו')).toEqual(expect.arrayContaining(['הגענו', 'גענו']));
    expect(terms('ושבבית')).toEqual(expect.arrayContaining(['בבית']));
  });

  it('never strips a word down to a single letter', () => {
    expect(terms('בו')).toEqual([]); // a stop word anyway
    expect(terms('במ')).toEqual(['במ']);
    expect(terms('מים')).toEqual(['מימ', 'ימ']);
    expect(terms('ומים').every((term) => term.length >= 2)).toBe(true);
  });

  it('does not treat impossible letter pairs as a prefix', () => {
    expect(terms('בבית')).not.toContain('ית');
  });

  it('drops stop words, also with a proclitic before them', () => {
    expect(terms('של')).toEqual([]);
    for (const word of ['ומה', 'באיזה', 'שאין', 'לכל', 'אצלכם']) expect(terms(word)).toEqual([]);
  });

  it('keeps the words of their own spelt like a proclitic before a stop word', () => {
    expect(terms('כלה')).toContain('כלה'); // bride, not כ + לה
    expect(terms('מעמ')).toContain('מעמ'); // מע"מ, VAT, not מ + עם
    expect(terms('מעל')).toContain('מעל');
  });

  const meet = (a: string, b: string) => terms(a).some((term) => terms(b).includes(term));

  it('meets plural, singular and construct forms (־ים, ־ות, ־י, ־ה)', () => {
    expect(meet('שעות', 'שעה')).toBe(true);
    expect(meet('משלוחים', 'משלוח')).toBe(true);
    expect(meet('המחירים', 'מחירי')).toBe(true);
    expect(meet('פתוחה', 'פתוחים')).toBe(true);
    expect(meet('הניתוחים', 'ניתוח')).toBe(true);
  });

  it('meets possessive endings and the feminine ־ת with the bare word', () => {
    expect(meet('כתובתנו', 'כתובת')).toBe(true);
    expect(meet('מחירינו', 'מחיר')).toBe(true);
    expect(meet('כוללת', 'כולל')).toBe(true);
    // Short words keep their ־ת: בית is not a form of בי.
    expect(terms('בית')).not.toContain('בי');
    expect(terms('שבת')).not.toContain('שב');
  });

  it('meets the plene and the defective spelling (כתיב מלא/חסר), also across inflections', () => {
    expect(meet('תוכנית', 'תכנית')).toBe(true);
    expect(meet('כיסאות', 'כסא')).toBe(true);
    expect(meet('כלול', 'כוללת')).toBe(true);
    expect(termVariants('תוכנית').find((variant) => variant.term === 'תכנת')?.form).toBe('spelling');
  });

  it('does not let unrelated short words meet', () => {
    expect(meet('שבת', 'שב')).toBe(false);
    expect(meet('בית', 'בי')).toBe(false);
  });
});

describe('termVariants for English', () => {
  it('removes stop words and stems plurals and verb endings', () => {
    expect(terms('the')).toEqual([]);
    expect(terms('policies')).toEqual(['policies', 'policy']);
    expect(stemEnglish('booking')).toBe(stemEnglish('booked'));
    expect(stemEnglish('booking')).toBe('book');
    expect(stemEnglish('submitted')).toBe('submit');
    expect(stemEnglish('approved')).toBe(stemEnglish('approve'));
    expect(stemEnglish('passwords')).toBe('password');
    expect(stemEnglish('business')).toBe('business');
    expect(stemEnglish('boxes')).toBe('box');
  });

  it('keeps numbers as they are', () => {
    expect(terms('2024')).toEqual(['2024']);
  });
});

describe('queryWords', () => {
  it('keeps each content word once, with its variants', () => {
    const words = queryWords('מה קרה בבית הכנסת? ובבית הכנסת!');
    expect(words.map((word) => word.word)).toEqual(['קרה', 'בבית', 'הכנסת', 'ובבית']);
    expect(words[1]!.variants.slice(0, 2)).toEqual([
      { term: 'בבית', exact: true, form: 'exact' },
      { term: 'בית', exact: false, form: 'prefix' },
    ]);
  });

  it('returns nothing for a question made only of stop words', () => {
    expect(queryWords('What is it? מה זה?')).toEqual([]);
  });
});

describe('toTsvectorLiteral', () => {
  it('gives the written form weight A and its stripped forms weight B at the same position', () => {
    expect(toTsvectorLiteral('הכלב שמח')).toBe("'הכלב':1A 'כלב':1B 'שמח':2A 'מח':2B");
  });

  it('counts stop words as positions even though they are not indexed', () => {
    expect(toTsvectorLiteral('the travel card')).toBe("'travel':2A 'card':3A");
  });

  it('lets an exact occurrence win over a stripped one at the same place', () => {
    // "ים" is both the word itself (A) and no other form of it; a second word stripping to it is B.
    expect(toTsvectorLiteral('מים')).toBe("'מימ':1A 'ימ':1B");
  });
});

describe('tsquery literals', () => {
  it('joins quoted terms with OR', () => {
    expect(toOrTsquery(['בית', 'travel'])).toBe("'בית' | 'travel'");
  });

  it('scopes a term to an assistant, quoting whatever the id contains', () => {
    expect(toScopedTsquery('travel', "asst_1'x\\")).toBe("'travel' & '@asst_1''x\\\\'");
    expect(toTsvectorLiteral('travel', 'asst-1')).toBe("'travel':1A '@asst-1'");
  });
});
