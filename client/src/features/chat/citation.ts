import type { ChatSource } from './api/chat-types';

/**
 * An answer whose text ends with its own citation ("Source: hours.txt", "מקורות: a.txt, b.pdf (https://…)")
 * while the message also carries those sources, which the chat shows as its sources line with links:
 * the paragraph is dropped from the text so that each answer shows its sources once. Only a paragraph
 * of the form "<label>: <names>" that names exactly the message's sources is taken out; any other text
 * stays as the assistant wrote it.
 */
const CITATION = /^[^\n:]{1,24}:\s*(.+)$/u;

const nameOf = (cited: string, urls: ReadonlySet<string>) => {
  const withUrl = /^(.*\S)\s+\((\S+)\)$/u.exec(cited);
  return withUrl && urls.has(withUrl[2]!) ? withUrl[1]! : cited;
};

export function withoutCitation(text: string, sources: readonly ChatSource[]): string {
  if (sources.length === 0) return text;
  const filenames = new Set(sources.map((s) => s.filename));
  const urls = new Set(sources.flatMap((s) => (s.sourceUrl ? [s.sourceUrl] : [])));
  const paragraphs = text.split(/\n\s*\n/u);
  // Never the first paragraph: that is the answer itself.
  for (let i = paragraphs.length - 1; i > 0; i--) {
    const match = CITATION.exec(paragraphs[i]!.trim());
    if (!match) continue;
    const names = match[1]!.split(/,\s*/u).map((cited) => nameOf(cited.trim(), urls));
    if (names.length > 0 && names.every((name) => filenames.has(name))) {
      return paragraphs.filter((_, j) => j !== i).join('\n\n').trim();
    }
  }
  return text;
}
