import { describe, expect, it } from 'vitest';
import { knowledgeLimits } from '../limits.js';
import { extractText } from './extract-text.js';
import { ExtractionError } from './extraction-error.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const withBom = (bom: number[], body: Uint8Array) => new Uint8Array([...bom, ...body]);
function utf16(text: string, endian: 'le' | 'be'): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes[2 * i + (endian === 'le' ? 0 : 1)] = code & 0xff;
    bytes[2 * i + (endian === 'le' ? 1 : 0)] = code >> 8;
  }
  return bytes;
}

const hebrew = 'שלום, זו חנות המאפים שלנו בירושלים.';

/** A character's byte in Windows-1255: ASCII as is, Hebrew letters from 0xE0, points from 0xC0. */
function windows1255Byte(char: string): number {
  const code = char.charCodeAt(0);
  if (code < 0x80) return code;
  if (code >= 0x05d0 && code <= 0x05ea) return 0xe0 + (code - 0x05d0);
  if (code >= 0x05b0 && code <= 0x05c2) return 0xc0 + (code - 0x05b0);
  throw new Error(`no Windows-1255 byte for ${char}`);
}

describe('TXT extraction', () => {
  it('detects UTF-8 (with or without BOM) and UTF-16 (with BOM, or by its zero bytes)', async () => {
    for (const bytes of [
      utf8(hebrew),
      withBom([0xef, 0xbb, 0xbf], utf8(hebrew)),
      withBom([0xff, 0xfe], utf16(hebrew, 'le')),
      withBom([0xfe, 0xff], utf16(hebrew, 'be')),
      utf16(`Plain ${hebrew}`, 'le'),
      utf16('Plain English text, no BOM.', 'be'),
    ]) {
      const result = await extractText(bytes, 'txt', 'a.txt');
      expect(result.text).toMatch(/שלום, זו חנות המאפים שלנו בירושלים\.|Plain English text, no BOM\./);
      expect(result.text.charCodeAt(0)).not.toBe(0xfeff);
    }
  });

  it('falls back to Windows-1255 for legacy Hebrew files', async () => {
    const windows1255 = new Uint8Array([0xf9, 0xec, 0xe5, 0xed, 0x20, 0xf2, 0xe5, 0xec, 0xed]); // "שלום עולם"
    expect((await extractText(windows1255, 'txt', 'old.txt')).text).toBe('שלום עולם');
  });

  it('reads a Latin-1 file as Latin-1, not as Hebrew, and still reads Windows-1255 Hebrew with English in it as Hebrew', async () => {
    const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
    expect((await extractText(latin1('Café crème brûlée'), 'txt', 'menu.txt')).text).toBe('Café crème brûlée');
    expect(
      (
        await extractText(
          latin1('Le gâteau à la crème coûte 12 €, très légère; la señora pidió el menú del día.'.replace('€', 'EUR')),
          'txt',
          'fr.txt',
        )
      ).text,
    ).toBe('Le gâteau à la crème coûte 12 EUR, très légère; la señora pidió el menú del día.');
    // Windows-1255 bytes of a Hebrew sentence with an English product name, a price and niqqud.
    const hebrew = 'המאפייה פתוחה עד 19:00, עוגת Apple pie עולה 72 ש"ח. בְּתֵאָבוֹן';
    const bytes = new Uint8Array([...hebrew].map((char) => windows1255Byte(char)));
    const result = await extractText(bytes, 'txt', 'hebrew.txt');
    expect(result.text).toBe(hebrew);
    expect(result.language).toBe('he');
  });

  it('removes control and invisible characters, normalises whitespace and keeps niqqud', async () => {
    const messy = 'Line\u0000 one\u200B\u00AD  with\t\ttabs\r\n\r\n\r\n\r\n\u200Fבְּרֵאשִׁית\u202A ok\u0007\u00A0end  ';
    const result = await extractText(utf8(messy), 'txt', 'messy.txt');
    expect(result.text).toBe('Line one with tabs\n\nבְּרֵאשִׁית ok end');
    expect(result.sections).toEqual([{ title: null, text: result.text }]);
  });

  it('refuses empty and whitespace-only files, and files with too much text', async () => {
    const empty = await extractText(utf8(' \n\u200B\n '), 'txt', 'empty.txt').catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(ExtractionError);
    expect((empty as ExtractionError).reason).toBe('No text could be found in this file.');
    const huge = await extractText(
      utf8('word '.repeat(knowledgeLimits.maxExtractedCharacters / 4)),
      'txt',
      'huge.txt',
    ).catch((e: unknown) => e);
    expect((huge as ExtractionError).failure).toBe('too_large');
    expect((huge as ExtractionError).reason).toMatch(/more than 1,000,000 characters/);
  });
});

describe('CSV extraction', () => {
  it('turns rows into "column: value" records, with quoted fields and a detected delimiter', async () => {
    const csv = 'מוצר;מחיר;הערות\nעוגת גבינה;89;"פרוסה ""גדולה"";\nעם תותים"\nלחם;24;\n';
    const result = await extractText(utf8(csv), 'csv', 'prices.csv');
    expect(result.sections).toEqual([
      { title: null, text: 'מוצר: עוגת גבינה\nמחיר: 89\nהערות: פרוסה "גדולה"; עם תותים\n\nמוצר: לחם\nמחיר: 24' },
    ]);
    expect(result.language).toBe('he');
  });

  it('reads a UTF-16 CSV exported by Excel', async () => {
    const result = await extractText(
      withBom([0xff, 0xfe], utf16('Name\tCity\r\nDana\tHaifa\r\n', 'le')),
      'csv',
      'excel.csv',
    );
    expect(result.text).toBe('Name: Dana\nCity: Haifa');
  });
});

describe('Markdown extraction', () => {
  it('splits at headings, uses the front-matter title and renders markup to its text', async () => {
    const md = [
      '---',
      'title: "Shop guide"',
      'tags: [a]',
      '---',
      'Welcome to **our** shop, see [the map](https://example.com/map).',
      '',
      '## Opening hours',
      '',
      '- Sunday to Thursday: 8:00–19:00',
      '- Friday: until 14:00',
      '',
      '| Day | Hours |',
      '|-----|-------|',
      '| Sat | closed |',
      '',
      '## משלוחים',
      '',
      'משלוח _חינם_ מעל 300 ש"ח.',
    ].join('\n');
    const result = await extractText(utf8(md), 'md', 'guide.md');
    expect(result.sections).toEqual([
      { title: 'Shop guide', text: 'Welcome to our shop, see the map.' },
      {
        title: 'Opening hours',
        text: 'Sunday to Thursday: 8:00–19:00\nFriday: until 14:00\n\nDay | Hours\nSat | closed',
      },
      { title: 'משלוחים', text: 'משלוח חינם מעל 300 ש"ח.' },
    ]);
    expect(result.text.startsWith('Shop guide\n\nWelcome')).toBe(true);
  });
});

describe('JSON extraction', () => {
  it('flattens records into "path: value" lines, one paragraph per record and one section per collection', async () => {
    const json = JSON.stringify({
      shop: 'Kesher bakery',
      products: [
        { name: 'Cheesecake', price: 89, tags: ['sweet', 'dairy'] },
        { name: 'Sourdough', price: 24, details: { flour: 'rye', weight: '1kg' } },
      ],
      faq: { delivery: 'Free above 300 shekels' },
    });
    const result = await extractText(utf8(json), 'json', 'catalogue.json');
    expect(result.sections).toEqual([
      { title: null, text: 'shop: Kesher bakery' },
      {
        title: 'products',
        text: 'name: Cheesecake\nprice: 89\ntags: sweet, dairy\n\nname: Sourdough\nprice: 24\ndetails.flour: rye\ndetails.weight: 1kg',
      },
      { title: 'faq', text: 'delivery: Free above 300 shekels' },
    ]);
  });

  it('calls invalid JSON damaged', async () => {
    const error = await extractText(utf8('{"a": 1,'), 'json', 'bad.json').catch((e: unknown) => e);
    expect((error as ExtractionError).reason).toBe(
      'The file could not be read: it looks damaged or is not a real JSON file.',
    );
  });
});

describe('HTML extraction', () => {
  it('keeps the page text in sections by heading and drops scripts, styles and markup', async () => {
    const html = `<!doctype html><html><head><title>Kesher &amp; Co</title><style>p{color:red}</style><script>var x = "<p>no</p>";</script></head>
      <body><nav>Home</nav><p>Fresh bread&nbsp;daily.</p><h1>Contact</h1><p>Call us<br>03-5551234</p><table><tr><th>Day</th><th>Open</th></tr><tr><td><p>Fri</p></td><td>8–14</td></tr></table>
      <h2 dir="rtl">צור קשר</h2><p dir="rtl">התקשרו אלינו</p><noscript>enable JS</noscript></body></html>`;
    const result = await extractText(utf8(html), 'html', 'page.html');
    expect(result.sections).toEqual([
      { title: 'Kesher & Co', text: 'Home\n\nFresh bread daily.' },
      { title: 'Contact', text: 'Call us\n03-5551234\n\nDay | Open\nFri | 8–14' },
      { title: 'צור קשר', text: 'התקשרו אלינו' },
    ]);
  });
});
