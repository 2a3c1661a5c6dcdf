import { describe, expect, it } from 'vitest';
import { buildDocx, buildPptx, buildXlsx } from '../testing/office-builders.js';
import { extractText } from './extract-text.js';
import { ExtractionError } from './extraction-error.js';
import { fixture } from './fixtures.js';
import { formatSerialDate } from './xlsx.extractor.js';

const failure = async (bytes: Uint8Array, kind: 'docx' | 'xlsx' | 'pptx') => {
  const error = await extractText(bytes, kind, `test.${kind}`).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ExtractionError);
  return error as ExtractionError;
};

describe('DOCX extraction', () => {
  it('splits a LibreOffice Word document at its headings, Hebrew intact, tables row by row', async () => {
    const result = await extractText(fixture('hebrew.docx'), 'docx', 'hebrew.docx');
    expect(result.language).toBe('he');
    expect(result.sections.map((section) => section.title)).toEqual([
      'מדיניות החזרות',
      'משלוחים לאילת',
      'Opening hours',
    ]);
    expect(result.sections[0]!.text).toBe(
      'ניתן להחזיר מוצר תוך 14 ימים מיום הקנייה, בתנאי שהוא באריזתו המקורית ולא נעשה בו שימוש.\n\nההחזר הכספי יבוצע לכרטיס האשראי שבו שולם המוצר, בתוך חמישה ימי עסקים.',
    );
    expect(result.sections[1]!.text).toContain('מוצר | מחיר\nעוגת גבינה | 89 ש"ח\nApple pie | 72 ש"ח');
    // Headings are part of the full text; section titles are not repeated inside the sections.
    expect(result.text.startsWith('מדיניות החזרות\n\nניתן להחזיר')).toBe(true);
  });

  it('reads a generated document with nested headings', async () => {
    const bytes = buildDocx([
      { paragraph: 'Welcome to the bakery.' },
      { heading: 'Prices' },
      { paragraph: 'Bread costs 24 shekels & cake 89.' },
      { heading: 'Gluten free', level: 2 },
      { paragraph: 'ללא גלוטן בימי שלישי.', rtl: true },
    ]);
    const result = await extractText(bytes, 'docx', 'generated.docx');
    expect(result.sections).toEqual([
      { title: null, text: 'Welcome to the bakery.' },
      { title: 'Prices', text: 'Bread costs 24 shekels & cake 89.' },
      { title: 'Gluten free', text: 'ללא גלוטן בימי שלישי.' },
    ]);
  });

  it('refuses a password-protected document and names the old .doc format', async () => {
    const encrypted = await failure(fixture('encrypted.docx'), 'docx');
    expect(encrypted.failure).toBe('encrypted');
    expect(encrypted.reason).toBe(
      'The Word document (.docx) is password-protected. Remove the password and upload it again.',
    );
    const legacy = await failure(fixture('legacy.doc'), 'docx');
    expect(legacy.failure).toBe('unsupported');
    expect(legacy.reason).toMatch(/save it as \.docx/);
  });

  it('calls a truncated document damaged', async () => {
    const whole = fixture('hebrew.docx');
    const error = await failure(whole.subarray(0, whole.length / 2), 'docx');
    expect(error.reason).toBe('The file could not be read: it looks damaged or is not a real Word document (.docx).');
  });
});

describe('XLSX extraction', () => {
  it('turns each sheet of a LibreOffice workbook into "header: value" records, with real dates', async () => {
    const result = await extractText(fixture('sheets.xlsx'), 'xlsx', 'sheets.xlsx');
    expect(result.sections).toEqual([
      {
        title: 'מחירון',
        text: 'מוצר: עוגת גבינה\nמחיר: 89\nזמין מתאריך: 2024-03-15\n\nמוצר: Apple pie\nמחיר: 72.5\nזמין מתאריך: 2024-04-01\n\nמוצר: לחם מחמצת\nמחיר: 24',
      },
      {
        title: 'Branches',
        text: 'Branch: Herzl Street\nCity: Rishon LeZion\nPhone: 03-5551234\n\nBranch: Old Port\nCity: Tel Aviv\nPhone: 03-5559876',
      },
    ]);
  });

  it('names columns without a header by their letter and skips empty cells', async () => {
    const bytes = buildXlsx([
      {
        name: 'Stock',
        rows: [
          ['Item', null, 'Count'],
          ['Flour', 'kg', 12],
          ['Sugar', null, 0],
        ],
      },
    ]);
    const result = await extractText(bytes, 'xlsx', 'stock.xlsx');
    expect(result.sections).toEqual([
      { title: 'Stock', text: 'Item: Flour\nB: kg\nCount: 12\n\nItem: Sugar\nCount: 0' },
    ]);
  });

  it('converts Excel serial dates in both date systems', () => {
    expect(formatSerialDate(45366)).toBe('2024-03-15');
    expect(formatSerialDate(45366.5)).toBe('2024-03-15 12:00');
    expect(formatSerialDate(0.75)).toBe('18:00');
    expect(formatSerialDate(45366 - 1462, true)).toBe('2024-03-15'); // the 1904 system starts 1462 days later
  });

  it('calls a broken workbook damaged', async () => {
    const error = await failure(fixture('sheets.xlsx').subarray(0, 2000), 'xlsx');
    expect(error.failure).toBe('corrupt');
    expect((await failure(buildDocx([{ paragraph: 'not a workbook' }]), 'xlsx')).failure).toBe('corrupt');
  });
});

describe('PPTX extraction', () => {
  it('reads a LibreOffice deck slide by slide with titles and speaker notes', async () => {
    const result = await extractText(fixture('slides.pptx'), 'pptx', 'slides.pptx');
    expect(result.sections).toEqual([
      { title: 'Kesher bakery', text: 'Fresh bread every morning' },
      {
        title: 'Delivery',
        text: 'Orders before noon arrive the same day\nDelivery is free above 300 shekels\n\nNotes: Remind customers that Eilat takes up to a week.',
      },
      { title: 'שעות פתיחה', text: 'ראשון עד חמישי 8:00–19:00\nשישי עד 14:00\n\nNotes: בערבי חג הסניף נסגר מוקדם.' },
    ]);
  });

  it('labels slides without a title by their number', async () => {
    const result = await extractText(
      buildPptx([{ body: ['Only a picture caption'] }, { title: 'Contact', body: ['Call 03-5551234'] }]),
      'pptx',
      'deck.pptx',
    );
    expect(result.sections).toEqual([
      { title: 'Slide 1', text: 'Only a picture caption' },
      { title: 'Contact', text: 'Call 03-5551234' },
    ]);
    expect(result.text).toBe('Only a picture caption\n\nContact\n\nCall 03-5551234');
  });

  it('calls a broken deck damaged', async () => {
    expect((await failure(new Uint8Array([1, 2, 3, 4]), 'pptx')).failure).toBe('corrupt');
  });
});
