import type { KnowledgeFileKind } from '@kesher/contracts';
import { knowledgeLimits } from '../limits.js';
import { cleanText, detectLanguage } from './clean-text.js';
import { extractionErrors } from './extraction-error.js';

export interface ExtractedSection {
  /** Heading, page, sheet or slide the text sits under; null where the format has none. */
  title: string | null;
  text: string;
}

export interface ExtractedText {
  /** The whole clean text, as shown to the owner and used for citations. */
  text: string;
  sections: ExtractedSection[];
  language: 'he' | 'en' | 'other';
}

/**
 * What an extractor produces before cleaning. `titleInText` says whether the title is the document's own
 * words (a heading, a sheet name) that belong in the full text, or a label we made up ("Page 3").
 */
export interface DraftSection {
  title: string | null;
  text: string;
  titleInText: boolean;
}

/**
 * Accumulates extracted characters and refuses early once a file is over the limit, so a huge file
 * fails fast instead of after it has been parsed to the end.
 */
export class CharacterBudget {
  private used = 0;
  add(characters: number) {
    this.used += characters;
    if (this.used > knowledgeLimits.maxExtractedCharacters * 1.2) throw extractionErrors.tooLarge();
  }

  /** Counts a text as cleaning will leave it (runs of whitespace as one), without making that copy. */
  addText(text: string) {
    let characters = 0;
    let space = false;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const isSpace = code === 32 || (code >= 9 && code <= 13) || code === 0xa0;
      if (!isSpace || !space) characters++;
      space = isSpace;
    }
    this.add(characters);
  }
}

/** Cleans the drafts, drops empty ones, applies the size limit and refuses files without any text. */
export function finishExtraction(kind: KnowledgeFileKind, drafts: readonly DraftSection[]): ExtractedText {
  const sections: ExtractedSection[] = [];
  const parts: string[] = [];
  for (const draft of drafts) {
    const title = draft.title === null ? null : cleanText(draft.title).replace(/\s+/g, ' ') || null;
    const text = cleanText(draft.text);
    if (!text && !(draft.titleInText && title)) continue;
    sections.push({ title, text });
    parts.push(draft.titleInText && title ? (text ? `${title}\n\n${text}` : title) : text);
  }
  const text = parts.join('\n\n');
  if (!/[\p{L}\p{N}]/u.test(text)) throw extractionErrors.empty(kind);
  if (text.length > knowledgeLimits.maxExtractedCharacters) throw extractionErrors.tooLarge();
  return { text, sections: sections.filter((section) => section.text), language: detectLanguage(text) };
}
