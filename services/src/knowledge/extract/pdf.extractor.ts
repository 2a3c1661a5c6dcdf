import { getDocumentProxy } from 'unpdf';
import { CharacterBudget, type DraftSection } from './extracted-text.js';
import { ExtractionError, extractionErrors } from './extraction-error.js';

/** A piece of text as pdf.js reports it: its string (already in logical order), baseline origin, advance and size. */
interface Glyphs {
  text: string;
  x: number;
  y: number;
  width: number;
  size: number;
  rtl: boolean;
}

interface Line {
  items: Glyphs[];
  y: number;
  size: number;
}

const RTL_CHARS = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/g;
const LTR_CHARS = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]/g;
const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/**
 * A PDF becomes one section per page ("Page 3"). pdf.js hands us positioned pieces of text, each
 * already in logical order; we rebuild lines from their baselines, put the pieces of a right-to-left
 * line in right-to-left order (keeping embedded English or numbers in their own order), and turn large
 * vertical gaps into paragraph breaks.
 */
export async function extractPdf(bytes: Uint8Array): Promise<DraftSection[]> {
  const header = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  if (!header.includes('%PDF-')) throw extractionErrors.corrupt('pdf');

  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of the buffer it is given, so it gets a copy; verbosity 0 keeps its warnings quiet.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    if ((error as { name?: string })?.name === 'PasswordException') throw extractionErrors.encrypted('pdf');
    throw extractionErrors.corrupt('pdf', error);
  }

  try {
    if (pdf.numPages === 0) throw extractionErrors.corrupt('pdf');
    const budget = new CharacterBudget();
    const sections: DraftSection[] = [];
    let readablePages = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      let pieces: Glyphs[];
      try {
        const page = await pdf.getPage(number);
        const content = await page.getTextContent();
        pieces = content.items.flatMap((item) => {
          if (!('str' in item) || item.str.trim() === '') return [];
          const [a, b, c, d, x, y] = item.transform as number[];
          const size = Math.hypot(c!, d!) || Math.hypot(a!, b!) || item.height || 10;
          return [{ text: item.str, x: x!, y: y!, width: item.width, size, rtl: item.dir === 'rtl' || count(item.str, RTL_CHARS) > count(item.str, LTR_CHARS) }];
        });
        page.cleanup();
        readablePages++;
      } catch {
        // A damaged page should not cost the owner the rest of the document.
        continue;
      }
      const text = pageText(pieces);
      budget.add(text.length);
      sections.push({ title: `Page ${number}`, text, titleInText: false });
    }
    if (readablePages === 0) throw extractionErrors.corrupt('pdf');
    return sections;
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw extractionErrors.corrupt('pdf', error);
  } finally {
    await pdf.destroy();
  }
}

/** Lines in content order (which follows columns better than sorting the page by height), then joined. */
function pageText(pieces: readonly Glyphs[]): string {
  const all = pieces.map((piece) => piece.text).join('');
  const pageRtl = count(all, RTL_CHARS) > count(all, LTR_CHARS);
  const lines: Line[] = [];
  for (const piece of pieces) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line.y - piece.y) <= 0.4 * Math.max(line.size, piece.size)) {
      line.items.push(piece);
      line.size = Math.max(line.size, piece.size);
    } else lines.push({ items: [piece], y: piece.y, size: piece.size });
  }

  const widest = Math.max(0, ...lines.map((line) => lineWidth(line)));
  let text = '';
  lines.forEach((line, index) => {
    const content = lineText(line, pageRtl);
    if (index === 0) {
      text = content;
      return;
    }
    const previous = lines[index - 1]!;
    const drop = previous.y - line.y;
    const newParagraph = drop > 1.6 * Math.max(previous.size, line.size) || drop < -0.5 * line.size;
    if (newParagraph) text += `\n\n${content}`;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(content)) text = text.slice(0, -1) + content;
    else {
      // A line that fills the measure is a soft wrap inside a sentence; a short one ends a line on purpose.
      const softWrap = lineWidth(previous) > 0.8 * widest && !/[.!?:;׃]$/.test(text);
      text += (softWrap ? ' ' : '\n') + content;
    }
  });
  return text;
}

function lineWidth(line: Line): number {
  const left = Math.min(...line.items.map((item) => item.x));
  const right = Math.max(...line.items.map((item) => item.x + item.width));
  return right - left;
}

/**
 * Pieces are placed left to right; a space goes where the gap between two pieces is wider than a
 * fraction of the font size. In a right-to-left line the sequence is then read from the right, except
 * that runs of left-to-right pieces (an English name, a price) keep their inner order. A PDF does not
 * say which way a line reads: a line with any Hebrew on a mostly Hebrew page is taken as right-to-left
 * (a table row naming an English product still reads from the right), elsewhere the majority decides.
 */
function lineText(line: Line, pageRtl: boolean): string {
  const visual = [...line.items].sort((a, b) => a.x - b.x);
  const all = visual.map((item) => item.text).join('');
  const rtlLine = count(all, RTL_CHARS) > 0 && (pageRtl || count(all, RTL_CHARS) > count(all, LTR_CHARS));

  const tokens: string[] = [];
  visual.forEach((item, index) => {
    if (index > 0) {
      const before = visual[index - 1]!;
      const gap = item.x - (before.x + before.width);
      tokens.push(gap > 0.15 * Math.max(item.size, before.size) && !/\s$/.test(before.text) && !/^\s/.test(item.text) ? ' ' : '');
    }
    tokens.push(item.text);
  });
  if (!rtlLine) return tokens.join('');

  // Group neighbouring left-to-right pieces (and the separators between them) into runs, then reverse the
  // runs. Pieces far apart (two table cells) are separate runs even when both are left-to-right.
  const runs: string[] = [];
  let run: string[] = [];
  visual.forEach((item, index) => {
    const separator = index > 0 ? tokens[index * 2 - 1]! : '';
    const before = visual[index - 1];
    const near = before !== undefined && item.x - (before.x + before.width) < Math.max(item.size, before.size);
    if (!item.rtl && run.length > 0 && before && !before.rtl && near) {
      run.push(separator, item.text);
      return;
    }
    if (run.length > 0) runs.push(run.join(''));
    if (index > 0) runs.push(separator);
    run = [item.text];
  });
  if (run.length > 0) runs.push(run.join(''));
  return runs.reverse().join('');
}
