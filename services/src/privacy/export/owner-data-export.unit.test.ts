import { describe, expect, it } from 'vitest';
import { csvCell } from './owner-data-export.js';

describe('a CSV cell of the export', () => {
  it('is written as text when a spreadsheet would run it as a formula', () => {
    expect(csvCell('=HYPERLINK("http://evil.example")')).toBe(`'=HYPERLINK("http://evil.example")`);
    expect(csvCell('+972 50 123 4567')).toBe(`'+972 50 123 4567`);
    expect(csvCell('-1')).toBe(`'-1`);
    expect(csvCell('@SUM(A1)')).toBe(`'@SUM(A1)`);
  });
  it('keeps everything else as it is: numbers, dates as ISO, objects as JSON, nothing as empty', () => {
    expect(csvCell('שלום, עולם')).toBe('שלום, עולם');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell(new Date('2026-01-02T03:04:05.000Z'))).toBe('2026-01-02T03:04:05.000Z');
    expect(csvCell({ a: 1 })).toBe('{"a":1}');
    expect(csvCell(null)).toBe('');
  });
});
