import { CharacterBudget, type DraftSection } from './extracted-text.js';
import { extractionErrors } from './extraction-error.js';
import { openOfficePackage, partRelationships, type OfficePackage } from './office-package.js';
import {
  childElements,
  elementText,
  findElements,
  firstChild,
  relationshipAttribute,
  type XmlElement,
} from './xml-tree.js';

const PRESENTATION = 'ppt/presentation.xml';

/**
 * A presentation becomes one section per slide, in the order the deck shows them (not the order of the
 * part names). The slide's title placeholder is the section title; body text, tables and the speaker
 * notes are its text, because presenters often put the real explanation in the notes.
 */
export function extractPptx(bytes: Uint8Array): DraftSection[] {
  const pkg = openOfficePackage(
    bytes,
    'pptx',
    (path) => path.startsWith('ppt/') && (path.endsWith('.xml') || path.endsWith('.rels')),
  );
  const presentation = pkg.xml(PRESENTATION);
  if (!presentation) throw extractionErrors.corrupt('pptx');
  const relationships = partRelationships(pkg, PRESENTATION);
  const budget = new CharacterBudget();
  // Slide and notes text is counted while each part is parsed, before it is assembled into sections.
  const parsing = new CharacterBudget();

  return findElements(presentation, 'sldId').flatMap((slideId, index): DraftSection[] => {
    const target = relationships.get(relationshipAttribute(slideId) ?? '');
    const slide = target && pkg.xml(target.path, { textBudget: parsing });
    if (!target || !slide) return [];
    const { title, paragraphs } = readShapes(slide, false);
    const notes = readNotes(pkg, target.path, parsing);
    const text = [...paragraphs, ...(notes ? [`Notes: ${notes}`] : [])].join('\n\n');
    budget.add(text.length);
    return [{ title: title || `Slide ${index + 1}`, text, titleInText: Boolean(title) }];
  });
}

function readNotes(pkg: OfficePackage, slidePath: string, parsing: CharacterBudget): string {
  const notesTarget = [...partRelationships(pkg, slidePath).values()].find((rel) => rel.type.endsWith('/notesSlide'));
  const notes = notesTarget && pkg.xml(notesTarget.path, { textBudget: parsing });
  return notes ? readShapes(notes, true).paragraphs.join('\n') : '';
}

const placeholderType = (shape: XmlElement) => findElements(shape, 'ph')[0]?.attributes.type;

/**
 * Walks a slide's shape tree in drawing order. On a notes page only the body placeholder is the
 * presenter's text; the rest is the slide thumbnail, the page number and the like.
 */
function readShapes(part: XmlElement, notesPage: boolean): { title: string; paragraphs: string[] } {
  const titles: string[] = [];
  const paragraphs: string[] = [];
  const tree = findElements(part, 'spTree')[0];
  if (!tree) return { title: '', paragraphs };

  const walk = (group: XmlElement) => {
    for (const shape of group.children) {
      if (typeof shape === 'string') continue;
      if (shape.name === 'grpSp') walk(shape);
      else if (shape.name === 'sp') {
        const type = placeholderType(shape);
        if (notesPage && type !== 'body') continue;
        if (type === 'sldNum' || type === 'dt' || type === 'ftr') continue;
        const body = firstChild(shape, 'txBody');
        const lines = body ? textParagraphs(body) : [];
        if (type === 'title' || type === 'ctrTitle') titles.push(lines.join(' '));
        else if (lines.length > 0) paragraphs.push(lines.join('\n'));
      } else if (shape.name === 'graphicFrame') {
        for (const table of findElements(shape, 'tbl')) {
          const rows = findElements(table, 'tr').map((row) =>
            findElements(row, 'tc')
              .map((cell) => textParagraphs(cell).join(' '))
              .filter(Boolean)
              .join(' | '),
          );
          paragraphs.push(rows.filter(Boolean).join('\n'));
        }
      }
    }
  };
  walk(tree);
  return { title: titles.filter(Boolean).join(' '), paragraphs: paragraphs.filter(Boolean) };
}

/** DrawingML paragraphs (`a:p`): runs and fields joined, `a:br` as a line break. */
function textParagraphs(container: XmlElement): string[] {
  return findElements(container, 'p')
    .map((paragraph) =>
      paragraph.children
        .map((child) => {
          if (typeof child === 'string') return '';
          if (child.name === 'br') return '\n';
          if (child.name === 'r' || child.name === 'fld')
            return childElements(child, 't')
              .map((t) => elementText(t))
              .join('');
          return '';
        })
        .join('')
        .trim(),
    )
    .filter(Boolean);
}
