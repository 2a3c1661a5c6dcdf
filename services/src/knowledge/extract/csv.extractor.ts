import Papa from 'papaparse';
import type { DraftSection } from './extracted-text.js';
import { extractionErrors } from './extraction-error.js';
import { cellsOf, recordLines } from './records.js';
import { decodeText } from './text-encoding.js';

/**
 * A CSV file is one section of records: the first row names the columns and each later row becomes
 * "column: value" lines. The delimiter (comma, semicolon, tab…) is detected, as spreadsheets in Hebrew
 * and European locales often export with semicolons.
 */
export function extractCsv(bytes: Uint8Array): DraftSection[] {
  const parsed = Papa.parse<string[]>(decodeText(bytes), { skipEmptyLines: 'greedy' });
  if (parsed.data.length === 0 && parsed.errors.length > 0) throw extractionErrors.corrupt('csv');
  return [{ title: null, text: recordLines(parsed.data.map(cellsOf)), titleInText: false }];
}
