import { describe, expect, it } from 'vitest';
import { writePdf } from '../testing/pdf-writer.js';
import { extractText } from './extract-text.js';
import { ExtractionError } from './extraction-error.js';
import { fixture } from './fixtures.js';

const failure = async (bytes: Uint8Array) => {
  const error = await extractText(bytes, 'pdf', 'test.pdf').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ExtractionError);
  return error as ExtractionError;
};

describe('PDF extraction', () => {
  it('reads a Hebrew PDF made by LibreOffice in logical order, one section per page', async () => {
    const result = await extractText(fixture('hebrew.pdf'), 'pdf', 'hebrew.pdf');
    expect(result.language).toBe('he');
    expect(result.sections.map((section) => section.title)).toEqual(['Page 1', 'Page 2']);
    const [first, second] = result.sections;
    // The words come out as typed, not mirrored: "מדיניות החזרות", not "תורזחה תוינידמ".
    expect(first!.text.startsWith('מדיניות החזרות\n')).toBe(true);
    expect(first!.text).toContain('ניתן להחזיר מוצר תוך 14 ימים מיום הקנייה, בתנאי שהוא באריזתו המקורית');
    expect(first!.text).toContain('משלוח לאילת נמשך עד שבעה ימים ועולה 45 ש"ח.');
    // A right-to-left table row with an English cell reads from the right.
    expect(first!.text).toContain('Apple pie 72 ש"ח');
    expect(second!.text).toContain(
      'The shop on Herzl Street is open Sunday to Thursday from 8:00 to 19:00 and on Friday until 14:00.',
    );
    expect(second!.text).toContain('שעות הפתיחה בערבי חג מתפרסמות באתר שבוע מראש.');
  });

  it('joins soft-wrapped lines of an English PDF into sentences', async () => {
    const result = await extractText(fixture('english.pdf'), 'pdf', 'english.pdf');
    expect(result.language).toBe('en');
    expect(result.sections[0]!.text).toContain(
      'Employees book flights through the travel desk at least fourteen days before departure. Economy class is the default for flights under six hours;',
    );
    expect(result.sections[1]!.text.startsWith('Expense reports\n')).toBe(true);
  });

  it('reads a generated multi-page PDF, including escaped characters', async () => {
    const bytes = writePdf([
      { heading: 'Menu', paragraphs: ['Cheesecake (classic) costs 89 shekels.', 'Sourdough bread costs 24 shekels.'] },
      { paragraphs: ['Orders above 300 shekels ship for free \\ always.'] },
    ]);
    const result = await extractText(bytes, 'pdf', 'menu.pdf');
    expect(result.sections).toEqual([
      { title: 'Page 1', text: 'Menu\n\nCheesecake (classic) costs 89 shekels.\n\nSourdough bread costs 24 shekels.' },
      { title: 'Page 2', text: 'Orders above 300 shekels ship for free \\ always.' },
    ]);
  });

  it('refuses a password-protected PDF', async () => {
    const error = await failure(fixture('encrypted.pdf'));
    expect(error.failure).toBe('encrypted');
    expect(error.reason).toMatch(/^The PDF is password-protected/);
  });

  it('says a PDF without text (a scan) has no text', async () => {
    const error = await failure(
      writePdf([
        { paragraphs: [], drawing: true },
        { paragraphs: [], drawing: true },
      ]),
    );
    expect(error.failure).toBe('empty');
    expect(error.reason).toMatch(/^No text could be found in this file/);
  });

  it('calls a truncated PDF damaged', async () => {
    const whole = fixture('english.pdf');
    const error = await failure(whole.subarray(0, Math.floor(whole.length * 0.6)));
    expect(error.failure).toBe('corrupt');
    expect(error.reason).toBe('The file could not be read: it looks damaged or is not a real PDF.');
  });

  it('calls a file that is not a PDF at all damaged', async () => {
    expect((await failure(new TextEncoder().encode('just some text, renamed to .pdf'))).failure).toBe('corrupt');
    expect((await failure(fixture('hebrew.docx'))).failure).toBe('corrupt');
  });
});
