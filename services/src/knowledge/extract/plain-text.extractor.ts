import { CharacterBudget, type DraftSection } from './extracted-text.js';
import { htmlToSections } from './html.extractor.js';
import { decodeText } from './text-encoding.js';

/** A text file is one untitled section; its paragraphs survive as blank-line breaks. */
export function extractPlainText(bytes: Uint8Array): DraftSection[] {
  const text = decodeText(bytes);
  // Refused here, before cleaning would copy it several times over.
  new CharacterBudget().addText(text);
  return [{ title: null, text, titleInText: false }];
}

/** A web page (crawled or uploaded), split at its headings; the <title> names the text before the first one. */
export function extractHtml(bytes: Uint8Array): DraftSection[] {
  return htmlToSections(decodeText(bytes));
}
