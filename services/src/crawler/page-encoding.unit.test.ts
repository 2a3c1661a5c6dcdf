import { describe, expect, it } from 'vitest';
import { decodePage, sniffEncoding } from './page-encoding.js';
import { encodeWindows1255 } from './testing/windows-1255.js';

const hebrew = '<html><body><h1>ברוכים הבאים למאפייה</h1><p>לחם טרי כל בוקר</p></body></html>';
const french = Buffer.from('<p>Café crème, été à la française, déjà prêt.</p>', 'latin1');

describe('page encodings', () => {
  it('follows BOM, header, then meta', () => {
    expect(
      decodePage(
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(hebrew)]),
        'text/html; charset=windows-1255',
      ),
    ).toMatchObject({ encoding: 'utf-8', source: 'bom' });
    expect(decodePage(encodeWindows1255(hebrew), 'text/html; charset="windows-1255"')).toMatchObject({
      text: hebrew,
      encoding: 'windows-1255',
      source: 'header',
    });
    const withMeta = encodeWindows1255(
      `<meta http-equiv="Content-Type" content="text/html; charset=windows-1255">${hebrew}`,
    );
    expect(decodePage(withMeta, 'text/html')).toMatchObject({ encoding: 'windows-1255', source: 'meta' });
    expect(decodePage(Buffer.from(`<meta charset="utf-8">${hebrew}`), null)).toMatchObject({
      text: `<meta charset="utf-8">${hebrew}`,
      source: 'meta',
    });
  });

  it('sniffs unlabelled pages: UTF-8, Hebrew Windows-1255, Latin Windows-1252', () => {
    expect(decodePage(Buffer.from(hebrew), null)).toMatchObject({ text: hebrew, encoding: 'utf-8', source: 'sniffed' });
    expect(decodePage(encodeWindows1255(hebrew), 'text/html')).toMatchObject({
      text: hebrew,
      encoding: 'windows-1255',
      source: 'sniffed',
    });
    expect(sniffEncoding(french)).toBe('windows-1252');
    expect(decodePage(french, null).text).toContain('Café crème');
  });

  it('overrules a label the bytes contradict, and says so', () => {
    expect(decodePage(encodeWindows1255(hebrew), 'text/html; charset=iso-8859-1')).toMatchObject({
      text: hebrew,
      encoding: 'windows-1255',
      overruledLabel: 'iso-8859-1',
    });
    expect(decodePage(encodeWindows1255(hebrew), 'text/html; charset=utf-8')).toMatchObject({
      text: hebrew,
      encoding: 'windows-1255',
      overruledLabel: 'utf-8',
    });
    expect(decodePage(Buffer.from(hebrew), 'text/html; charset=windows-1255')).toMatchObject({
      text: hebrew,
      encoding: 'utf-8',
      overruledLabel: 'windows-1255',
    });
    // A correct Latin label on a Latin page stays.
    expect(decodePage(french, 'text/html; charset=windows-1252')).toMatchObject({
      encoding: 'windows-1252',
      overruledLabel: null,
    });
    // An unknown label is ignored.
    expect(decodePage(Buffer.from(hebrew), 'text/html; charset=x-klingon')).toMatchObject({
      encoding: 'utf-8',
      source: 'sniffed',
    });
  });
});
