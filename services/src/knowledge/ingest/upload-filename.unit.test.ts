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

  it('never cuts an emoji in half', () => {
    const { filename } = uploadedFileName(`${'a'.repeat(195)}🍰🍰.txt`);
    expect(filename).toBe(`${'a'.repeat(195)}.txt`);
    expect(filename).not.toMatch(/[\uD800-\uDFFF]/);
  });
});
