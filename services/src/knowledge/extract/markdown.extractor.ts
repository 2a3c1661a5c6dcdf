import { marked } from 'marked';
import type { DraftSection } from './extracted-text.js';
import { htmlToSections } from './html.extractor.js';
import { decodeText } from './text-encoding.js';

/** YAML front matter (`---` … `---` at the very top), as static-site and notes tools write it. */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Markdown is rendered to HTML and split at its headings like a web page, so emphasis, links, lists and
 * tables come out as their text. A front-matter `title:` becomes the title of the text before the first heading.
 */
export function extractMarkdown(bytes: Uint8Array): DraftSection[] {
  let source = decodeText(bytes);
  let leadingTitle: string | null = null;
  const frontMatter = FRONT_MATTER.exec(source);
  if (frontMatter) {
    const title = /^title:\s*(.+)$/m.exec(frontMatter[1]!)?.[1];
    leadingTitle = title ? title.trim().replace(/^(["'])(.*)\1$/, '$2') : null;
    source = source.slice(frontMatter[0].length);
  }
  const html = marked.parse(source, { async: false, gfm: true });
  return htmlToSections(html, { leadingTitle });
}
