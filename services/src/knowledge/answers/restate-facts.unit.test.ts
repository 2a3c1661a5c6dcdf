import { describe, expect, it } from 'vitest';
import { restateFacts, restatePrice } from './restate-facts.js';

describe('facts restated in the question language', () => {
  it('gives an amount with its currency in the reader language', () => {
    expect(restatePrice('890 ILS', 'he')).toBe('890 ש"ח');
    expect(restatePrice('NIS 150', 'he')).toBe('150 ש"ח');
    expect(restatePrice('₪48', 'en')).toBe('48 ILS');
    expect(restatePrice('180 ש"ח', 'en')).toBe('180 ILS');
    expect(restatePrice('24 shekels', 'he')).toBe('24 ש"ח');
    expect(restatePrice('$129', 'he')).toBe('$129');
    expect(
      restateFacts(
        'price',
        'The beginner wheel course runs for eight Tuesday evenings and costs 890 ILS, clay and firing included.',
        'he',
      ),
    ).toEqual(['890 ש"ח']);
  });

  it('gives opening times with their weekdays, only the asked day when a day is asked', () => {
    const hours =
      'From Sunday to Thursday we are open from 7:00 to 19:00. On Friday we are open from 7:00 to 14:00, and on Saturday the bakery is closed. On the eve of a holiday we close at 13:00.';
    expect(restateFacts('time', hours, 'he')).toEqual(['ראשון–חמישי 7:00–19:00', 'שישי 7:00–14:00', 'שבת סגור']);
    expect(restateFacts('time', hours, 'he', 'מתי אתם פתוחים ביום שישי?')).toEqual(['שישי 7:00–14:00']);
    const hebrew =
      'המרכז פתוח בימים ראשון עד חמישי בין השעות 9:00 ל־17:00, ובימי שישי בין 9:00 ל־13:00. בשבת ובחגים המרכז סגור.';
    expect(restateFacts('time', hebrew, 'en')).toEqual([
      'Sunday–Thursday 9:00–17:00',
      'Friday 9:00–13:00',
      'Saturday closed',
    ]);
    expect(restateFacts('time', hebrew, 'en', 'What are your hours on Friday?')).toEqual(['Friday 9:00–13:00']);
  });

  it('gives durations with their unit translated and addresses as written', () => {
    expect(restateFacts('duration', 'A standard tune-up takes two working days.', 'he')).toEqual(['2 ימי עסקים']);
    expect(restateFacts('duration', 'המשלוח מגיע תוך שלושה ימי עסקים.', 'en')).toEqual(['3 business days']);
    expect(restateFacts('place', 'Our shop is at 14 Harbor Street, Ashdod, next to the fish market.', 'he')).toEqual([
      '14 Harbor Street, Ashdod',
    ]);
    expect(restateFacts('place', 'אנחנו נמצאים ברחוב הרצל 45 ברחובות, מול הדואר המרכזי.', 'en')).toEqual([
      'רחוב הרצל 45',
    ]);
  });

  it('gives nothing for a kind it cannot carry across, so the sentence is quoted', () => {
    expect(restateFacts(null, 'Free parking is available.', 'he')).toEqual([]);
    expect(restateFacts('price', 'Prices are listed at the counter.', 'he')).toEqual([]);
  });
});

describe('facts restated at stop 30', () => {
  it('keeps the amounts a price list gives before its currency', () => {
    expect(restateFacts('price', 'Gift cards are sold in amounts of 100, 200 and 300 shekels.', 'he')).toEqual([
      '100, 200, 300 ש"ח',
    ]);
    expect(restateFacts('price', 'It costs 1,300 ILS.', 'he')).toEqual(['1,300 ש"ח']);
  });

  it('keeps millions and thousands with their amount', () => {
    expect(restateFacts('price', 'עבודות הבנייה נמשכו שמונה עשר חודשים ועלו 14 מיליון ש"ח.', 'en')).toEqual([
      '14 million ILS',
    ]);
  });

  it('reads a Hebrew address on a road (דרך) with its number', () => {
    expect(restateFacts('place', 'אפשר גם לאסוף את ההזמנה מבית הקלייה בדרך הבזלת 4 בקצרין.', 'en')).toEqual([
      'דרך הבזלת 4',
    ]);
  });
});

describe('times restated across languages (issue 22 item 4)', () => {
  it("keeps the general time that comes before a day's exception", () => {
    const rule = 'Bikes are returned by 18:00. On Fridays, return them by 14:00.';
    expect(restateFacts('time', rule, 'he')).toEqual(['18:00', 'שישי 14:00']);
  });
});

describe("a Hebrew timetable's weekday letters (issue 22, held-out 5 round)", () => {
  it('reads א׳–ה׳ as Sunday to Thursday and ו׳ as Friday', () => {
    const footer = "03-5182236 | א'–ה' 9:00–19:00, ו' 8:30–14:00";
    expect(restateFacts('time', footer, 'en', 'What are your hours on Friday?')).toEqual(['Friday 8:30–14:00']);
    expect(restateFacts('time', footer, 'en')).toEqual(['Sunday–Thursday 9:00–19:00', 'Friday 8:30–14:00']);
  });
});
