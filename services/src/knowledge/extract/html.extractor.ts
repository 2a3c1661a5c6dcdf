import { Parser } from 'htmlparser2';
import { CharacterBudget, type DraftSection } from './extracted-text.js';

/** Elements whose content is never knowledge. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'button',
]);
/** Elements that end a paragraph when they open or close. */
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
  'blockquote',
  'ul',
  'ol',
  'table',
  'dl',
  'figure',
  'figcaption',
  'form',
  'fieldset',
  'address',
  'pre',
  'hr',
  'details',
  'summary',
  'caption',
]);
/** Elements that end a line but keep the paragraph (list items, table rows, definition terms). */
const LINES = new Set(['li', 'tr', 'thead', 'tbody', 'tfoot', 'dt', 'dd', 'br']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * Splits HTML into sections at its headings; the text before the first heading goes under
 * `leadingTitle` (a page's <title>, a Markdown file's front-matter title). Used for web pages and,
 * through mammoth and marked, for Word documents and Markdown, so all three follow the same rules.
 * The text is counted against `budget` as it is read, so an oversized page stops there.
 */
export function htmlToSections(
  html: string,
  options: { leadingTitle?: string | null; budget?: CharacterBudget } = {},
): DraftSection[] {
  const budget = options.budget ?? new CharacterBudget();
  const sections: DraftSection[] = [];
  let title: string | null = options.leadingTitle ?? null;
  let titleInText = title !== null;
  let lines: string[] = [];
  let line = '';
  let skipDepth = 0;
  let preDepth = 0;
  let heading: string | null = null;
  let pageTitle: string | null = null;
  let inTitle = false;
  let cellsInRow = 0;
  // Inside a table cell, paragraphs and line breaks are only spaces: a row must stay on one line.
  let cellDepth = 0;

  const endLine = () => {
    const trimmed = line.trim();
    if (trimmed) lines.push(trimmed);
    line = '';
  };
  const endParagraph = () => {
    endLine();
    if (lines.length > 0 && lines[lines.length - 1] !== '') lines.push('');
  };
  const endSection = () => {
    endParagraph();
    const text = lines.join('\n').trim();
    if (text || (title && titleInText)) sections.push({ title, text, titleInText });
    lines = [];
  };

  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIPPED.has(name) || skipDepth > 0) {
          skipDepth++;
          return;
        }
        if (name === 'title') inTitle = true;
        else if (HEADINGS.has(name)) {
          endParagraph();
          heading = '';
        } else if (name === 'pre') {
          endParagraph();
          preDepth++;
        } else if (name === 'tr') {
          endLine();
          cellsInRow = 0;
        } else if (name === 'td' || name === 'th') {
          if (cellsInRow++ > 0) line += ' | ';
          cellDepth++;
        } else if (cellDepth > 0 && (BLOCKS.has(name) || LINES.has(name))) line += ' ';
        else if (BLOCKS.has(name)) endParagraph();
        else if (LINES.has(name)) endLine();
      },
      ontext(text) {
        if (skipDepth > 0) return;
        if (inTitle) {
          pageTitle = (pageTitle ?? '') + text;
          return;
        }
        const content = preDepth > 0 ? text : text.replace(/\s+/g, ' ');
        budget.add(content.length);
        if (heading !== null) heading += content;
        else if (preDepth > 0) {
          const [first, ...rest] = content.split('\n');
          line += first;
          for (const next of rest) {
            endLine();
            line = next ?? '';
          }
        } else line += content;
      },
      onclosetag(name) {
        if (skipDepth > 0) {
          skipDepth--;
          return;
        }
        if (name === 'title') inTitle = false;
        else if (HEADINGS.has(name) && heading !== null) {
          const text = heading.replace(/\s+/g, ' ').trim();
          heading = null;
          if (text) {
            endSection();
            title = text;
            titleInText = true;
          }
        } else if (name === 'pre') {
          endParagraph();
          preDepth = Math.max(0, preDepth - 1);
        } else if (name === 'td' || name === 'th') cellDepth = Math.max(0, cellDepth - 1);
        else if (cellDepth > 0 && (BLOCKS.has(name) || LINES.has(name))) line += ' ';
        else if (BLOCKS.has(name)) endParagraph();
        else if (LINES.has(name) && name !== 'br') endLine();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  endSection();

  // A page whose <title> came before any content gets it as the first section's title.
  const leading = pageTitle as string | null;
  if (leading && options.leadingTitle === undefined && sections[0] && sections[0].title === null) {
    sections[0] = { ...sections[0], title: leading.replace(/\s+/g, ' ').trim() || null, titleInText: true };
  }
  return sections;
}
