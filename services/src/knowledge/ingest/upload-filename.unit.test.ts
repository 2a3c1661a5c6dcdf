import { describe, expect, it } from 'vitest';
import { uploadedFileName } from './upload-filename.js';

describe('uploadedFileName', () => {
  it('keeps the extension, and so the type, of a name longer than 200 characters', () => {
    const long = `${'דוח רבעוני מפורט '.repeat(20)}final.PDF`;
    expect(long.length).toBeGreaterThan(300);
    const { filename, kind } = uploadedFileName(long);
    expect(kind).toBe('pdf');
    expect(filename).toHaveLength(200);
    expect(filename.endsWith('.PDF')).toBe(true);
    expect(filename.startsWith('דוח רבעוני')).toBe(true);
  });

  it('drops directories and control characters, and names the type only for accepted extensions', () => {
    expect(uploadedFileName('C:\\Users\\dana\\prices\u0007.xlsx')).toEqual({ filename: 'prices.xlsx', kind: 'xlsx' });
    expect(uploadedFileName('../../etc/notes.md')).toEqual({ filename: 'notes.md', kind: 'md' });
    expect(uploadedFileName('setup.exe').kind).toBeUndefined();
    expect(uploadedFileName('README').kind).toBeUndefined();
    expect(uploadedFileName('   ')).toEqual({ filename: 'file', kind: undefined });
  });

  it('drops bidi controls and other invisible format characters before the type is read', () => {
    // What the owner's list would show reversed: "menu" then an override that draws "txt.exe" as "exe.txt".
    expect(uploadedFileName('menu\u202Etxt.exe')).toEqual({ filename: 'menutxt.exe', kind: undefined });
    expect(uploadedFileName('\u202Bמחירון\u202C \u2066\u202D2025\u2069\u200F\u200E\u061C\u202A.txt')).toEqual({
      filename: 'מחירון 2025.txt',
      kind: 'txt',
    });
    expect(uploadedFileName('\uFEFFnotes\u2060\u00AD\u0085.md').filename).toBe('notes.md');
    expect(uploadedFileName('\u202E\u2067').filename).toBe('file');
    // Joiners and flag tags are part of what a name shows.
    expect(
      uploadedFileName('צוות 👩\u200D💻 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}.txt').filename,
    ).toBe('צוות 👩\u200D💻 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}.txt');
  });

  it('never cuts an emoji in half', () => {
    const { filename } = uploadedFileName(`${'a'.repeat(195)}🍰🍰.txt`);
    expect(filename).toBe(`${'a'.repeat(195)}.txt`);
    expect(filename).not.toMatch(/[\uD800-\uDFFF]/);
  });
});
