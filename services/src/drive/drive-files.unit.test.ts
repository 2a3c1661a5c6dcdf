import { describe, expect, it } from 'vitest';
import { driveFileUrl, driveReading, driveSearchQuery, knowledgeFileName } from './drive-files.js';

describe('reading Drive files into knowledge', () => {
  it("exports Google's own formats (Docs and Slides as text, Sheets as CSV) and downloads the rest", () => {
    expect(driveReading('application/vnd.google-apps.document')).toMatchObject({
      via: 'export',
      exportMimeType: 'text/plain',
      kind: 'txt',
    });
    expect(driveReading('application/vnd.google-apps.spreadsheet')).toMatchObject({
      via: 'export',
      exportMimeType: 'text/csv',
      kind: 'csv',
    });
    expect(driveReading('application/vnd.google-apps.presentation')).toMatchObject({ via: 'export', kind: 'txt' });
    expect(driveReading('application/pdf')).toEqual({ via: 'download', kind: 'pdf', extension: 'pdf' });
    expect(driveReading('application/vnd.openxmlformats-officedocument.wordprocessingml.document')?.kind).toBe('docx');
    expect(driveReading('image/png')).toBeUndefined();
    expect(driveReading('application/vnd.google-apps.folder')).toBeUndefined();
  });

  it('names the file with the extension its reading gives, once', () => {
    const doc = driveReading('application/vnd.google-apps.document')!;
    expect(knowledgeFileName({ name: 'Opening hours' }, doc)).toBe('Opening hours.txt');
    expect(knowledgeFileName({ name: 'menu.pdf' }, driveReading('application/pdf')!)).toBe('menu.pdf');
    expect(knowledgeFileName({ name: '  ' }, doc)).toBe('Untitled.txt');
  });

  it("quotes the owner's search in Drive's query language so it cannot change the query", () => {
    const query = driveSearchQuery("O'Brien \\ menu");
    expect(query).toContain("name contains 'O\\'Brien \\\\ menu'");
    expect(query.startsWith('trashed = false and (')).toBe(true);
    expect(driveSearchQuery('  ')).not.toContain('name contains');
  });

  it('links to the file in Drive', () => {
    expect(driveFileUrl('1a/b')).toBe('https://drive.google.com/file/d/1a%2Fb');
  });
});
