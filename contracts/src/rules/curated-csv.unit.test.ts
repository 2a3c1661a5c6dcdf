import { describe, expect, it } from 'vitest';
import { parseCuratedCsv, toCuratedCsv } from './curated-csv.js';

describe('curated answers as CSV', () => {
  it('round-trips quotes, commas, line breaks, Hebrew and formula-like cells', () => {
    const rows = [
      { question: 'כמה עולה "תספורת"?', answer: 'תספורת: 80 ₪, כולל חפיפה.\nבשישי 90 ₪.' },
      { question: '=1+1', answer: '-5% for students, @home too' },
      { question: 'plain', answer: 'text' },
    ];
    const csv = toCuratedCsv(rows);
    expect(csv.startsWith('question,answer\r\n')).toBe(true);
    expect(csv).toContain("'=1+1");
    expect(parseCuratedCsv(csv)).toEqual(rows);
  });

  it('reads a file without the header row, with a BOM, and refuses what is not question,answer', () => {
    expect(parseCuratedCsv('\uFEFFq1,a1\nq2,a2\n')).toEqual([
      { question: 'q1', answer: 'a1' },
      { question: 'q2', answer: 'a2' },
    ]);
    expect(parseCuratedCsv('a,b,c\n')).toBeNull();
    expect(parseCuratedCsv('"unclosed,x\n')).toBeNull();
  });
});
