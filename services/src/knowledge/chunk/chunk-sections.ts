import type { KnowledgeChunk } from '@kesher/contracts';
import { knowledgeLimits } from '../limits.js';

export interface ChunkOptions {
  minWords: number;
  maxWords: number;
  overlapMaxWords: number;
}

const defaults: ChunkOptions = {
  minWords: knowledgeLimits.chunkMinWords,
  maxWords: knowledgeLimits.chunkMaxWords,
  overlapMaxWords: knowledgeLimits.chunkOverlapMaxWords,
};

/** A piece that is never cut: a paragraph, or a sentence (clause, run of words) of one that is too long. */
interface Unit {
  text: string;
  words: number;
  startsParagraph: boolean;
}

const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Sentence ends: . ! ? … and the Hebrew sof pasuq, optionally followed by closing quotes or brackets; also line ends. */
const SENTENCE_END = /(?<=[.!?…׃](?:["'”’»)\]]*))\s+|\n+/;
const CLAUSE_END = /(?<=[,;:،])\s+/;

function splitToFit(text: string, maxWords: number, startsParagraph: boolean): Unit[] {
  const words = countWords(text);
  if (words <= maxWords) return [{ text, words, startsParagraph }];
  const finer = (pattern: RegExp) =>
    text
      .split(pattern)
      .map((part) => part.trim())
      .filter(Boolean);
  let parts = finer(SENTENCE_END);
  if (parts.length <= 1) parts = finer(CLAUSE_END);
  if (parts.length <= 1) {
    const all = text.split(/\s+/).filter(Boolean);
    parts = [];
    for (let i = 0; i < all.length; i += maxWords) parts.push(all.slice(i, i + maxWords).join(' '));
  }
  return parts.flatMap((part, i) => splitToFit(part, maxWords, startsParagraph && i === 0));
}

function joinUnits(units: readonly Unit[]): string {
  return units.map((unit, i) => (i === 0 ? unit.text : `${unit.startsParagraph ? '\n\n' : ' '}${unit.text}`)).join('');
}

const wordsOf = (units: readonly Unit[]) => units.reduce((sum, unit) => sum + unit.words, 0);

/**
 * Packs a section's paragraphs into passages of about minWords–maxWords words. A passage is closed at a
 * paragraph boundary once it has minWords, and at the latest before it would pass maxWords; a long
 * paragraph is cut between sentences. When a cut falls inside a paragraph, the next passage repeats the
 * last sentence (if it is short) so that neither passage starts mid-thought. A short remainder at the
 * end of a section joins the passage before it when they fit together.
 */
function chunkSection(text: string, options: ChunkOptions): string[] {
  const units = text
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .flatMap((paragraph) => splitToFit(paragraph, options.maxWords, true));

  const passages: Unit[][] = [];
  let current: Unit[] = [];
  let carried = 0; // units at the start of `current` repeated from the previous passage
  for (const unit of units) {
    const words = wordsOf(current);
    const full = words + unit.words > options.maxWords;
    const enough = unit.startsParagraph && words >= options.minWords;
    if (current.length > carried && (full || enough)) {
      passages.push(current);
      const last = current[current.length - 1]!;
      const overlap =
        !unit.startsParagraph && last.words <= options.overlapMaxWords && last.words + unit.words <= options.maxWords;
      current = overlap ? [last] : [];
      carried = current.length;
    }
    current.push(unit);
  }
  if (current.length > carried) {
    const previous = passages[passages.length - 1];
    const tail = current.slice(carried);
    if (previous && wordsOf(current) < options.minWords && wordsOf(previous) + wordsOf(tail) <= options.maxWords)
      previous.push(...tail);
    else passages.push(current);
  }
  return passages.map(joinUnits);
}

/** The passages of an extracted file, numbered in reading order, each under the section it came from. */
export function chunkSections(
  sections: readonly { title: string | null; text: string }[],
  options: ChunkOptions = defaults,
): KnowledgeChunk[] {
  const chunks: KnowledgeChunk[] = [];
  for (const section of sections) {
    for (const text of chunkSection(section.text, options))
      chunks.push({ index: chunks.length, text, section: section.title });
  }
  return chunks;
}
