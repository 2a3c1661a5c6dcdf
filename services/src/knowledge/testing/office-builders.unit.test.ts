import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildDocx, buildXlsx } from './office-builders.js';

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Test sites and labelled sets build their documents on every request; a crawl, a dedupe or a stored-page
 * count compares them by their bytes. Built at other moments, the same document must be the same bytes.
 */
describe('the office builders', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('build the same document to the same bytes whenever it is built', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T10:00:00Z'));
    const docx = digest(buildDocx([{ heading: 'Wholesale' }, { paragraph: 'Baguettes at 3 dollars.' }]));
    const xlsx = digest(buildXlsx([{ name: 'Prices', rows: [['Loaf', 8.5]] }]));
    vi.setSystemTime(new Date('2026-03-01T10:00:07Z'));
    expect(digest(buildDocx([{ heading: 'Wholesale' }, { paragraph: 'Baguettes at 3 dollars.' }]))).toBe(docx);
    expect(digest(buildXlsx([{ name: 'Prices', rows: [['Loaf', 8.5]] }]))).toBe(xlsx);
  });
});
