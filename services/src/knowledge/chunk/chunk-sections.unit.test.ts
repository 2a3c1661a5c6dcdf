import { describe, expect, it } from 'vitest';
import { chunkSections } from './chunk-sections.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** A sentence of exactly `n` words that can be found again: "s7 w w w … end." */
const sentence = (id: string, n: number) => `${id} ${Array.from({ length: n - 2 }, () => 'word').join(' ')} end.`;
const paragraph = (id: string, sentences: number, size = 15) =>
  Array.from({ length: sentences }, (_, i) => sentence(`${id}s${i}`, size)).join(' ');

describe('chunkSections', () => {
  it('keeps a short section as one passage under its title', () => {
    const chunks = chunkSections([{ title: 'Returns', text: 'Returns are accepted within 14 days.' }]);
    expect(chunks).toEqual([{ index: 0, text: 'Returns are accepted within 14 days.', section: 'Returns' }]);
  });

  it('packs paragraphs into passages of 120–250 words and breaks between paragraphs', () => {
    const text = Array.from({ length: 12 }, (_, p) => paragraph(`p${p}`, 5)).join('\n\n'); // 12 × 75 words
    const chunks = chunkSections([{ title: null, text }]);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(words(chunk.text)).toBeLessThanOrEqual(250);
      expect(words(chunk.text)).toBeGreaterThanOrEqual(120);
      // Every passage starts at a paragraph start and ends at a sentence end.
      expect(chunk.text).toMatch(/^p\d+s0 /);
      expect(chunk.text).toMatch(/end\.$/);
    }
    // Nothing is lost: every sentence is in some passage.
    for (let p = 0; p < 12; p++)
      for (let s = 0; s < 5; s++) expect(chunks.some((c) => c.text.includes(`p${p}s${s} `))).toBe(true);
  });

  it('cuts a long paragraph between sentences and repeats the last short sentence', () => {
    const chunks = chunkSections([{ title: 'Policy', text: paragraph('x', 40, 20) }]); // 800 words, one paragraph
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(words(chunk.text)).toBeLessThanOrEqual(250);
    for (let i = 1; i < chunks.length; i++) {
      const firstOfNext = /^(xs\d+) /.exec(chunks[i]!.text)![1]!;
      expect(chunks[i - 1]!.text).toContain(`${firstOfNext} `);
    }
    expect(chunks.every((chunk) => chunk.section === 'Policy')).toBe(true);
  });

  it('splits text without sentence punctuation at clauses, then at words', () => {
    const clauses = Array.from({ length: 30 }, (_, i) => `c${i} ${'w '.repeat(18)}w,`).join(' ');
    const clauseChunks = chunkSections([{ title: null, text: clauses }]);
    expect(clauseChunks.every((chunk) => words(chunk.text) <= 250 && chunk.text.endsWith(','))).toBe(true);

    const run = Array.from({ length: 700 }, (_, i) => `t${i}`).join(' ');
    const runChunks = chunkSections([{ title: null, text: run }]);
    expect(runChunks.map((chunk) => words(chunk.text))).toEqual([250, 250, 200]);
  });

  it('splits Hebrew at periods and the sof pasuq', () => {
    const hebrew = Array.from({ length: 30 }, (_, i) => `משפט${i} ${'מילה '.repeat(12)}סוף׃`).join(' ');
    const chunks = chunkSections([{ title: 'פרק', text: hebrew }]);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((chunk) => chunk.text.endsWith('סוף׃'))).toBe(true);
  });

  it('lets a short remainder join the passage before it', () => {
    const text = [paragraph('a', 10), paragraph('b', 1)].join('\n\n'); // 150 + 15 words
    const chunks = chunkSections([{ title: null, text }]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.text).toContain('\n\nbs0 ');
  });

  it('never merges across sections and numbers passages in reading order', () => {
    const chunks = chunkSections([
      { title: 'Page 1', text: 'First page.' },
      { title: 'Page 2', text: paragraph('q', 20) },
      { title: 'Page 3', text: 'Last page.' },
    ]);
    expect(chunks.map((chunk) => chunk.index)).toEqual(chunks.map((_, i) => i));
    expect(chunks[0]).toMatchObject({ section: 'Page 1', text: 'First page.' });
    expect(chunks[chunks.length - 1]).toMatchObject({ section: 'Page 3', text: 'Last page.' });
  });
});
