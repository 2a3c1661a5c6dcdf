import { getDocumentProxy } from 'unpdf';
import { knowledgeLimits } from '../limits.js';
import { CharacterBudget, type DraftSection } from './extracted-text.js';
import { ExtractionError, extractionErrors } from './extraction-error.js';
import { checkPdfStreams } from './pdf-streams.js';

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
  await checkPdfStreams(bytes);

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
    const pieceBudget = new PieceBudget();
    const sections: DraftSection[] = [];
    let readablePages = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      let pieces: Glyphs[];
      try {
        pieces = await pagePieces(await pdf.getPage(number), budget, pieceBudget);
        readablePages++;
      } catch (error) {
        if (error instanceof ExtractionError) throw error;
        // A damaged page should not cost the owner the rest of the document.
        continue;
      }
      const text = pageText(pieces);
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

/**
 * Text pieces grow a page's working set even when they hold nothing (an operator showing an empty
 * string, a stray space): past this many in one file it is refused like a file with too much text.
 */
class PieceBudget {
  private used = 0;
  add(pieces: number) {
    this.used += pieces;
    if (this.used > knowledgeLimits.maxExtractedCharacters * 2) throw extractionErrors.tooLarge();
  }
}

/** The fields of a pdf.js text item we read. */
interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  dir: string;
}

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>['getPage']>>;

/**
 * A page's text pieces, read as pdf.js streams them (a hundred at a time) and counted as they arrive:
 * a page with millions of text operators is refused once it is over the limit, not after pdf.js has
 * built all of them.
 */
async function pagePieces(page: PdfPage, budget: CharacterBudget, pieceBudget: PieceBudget): Promise<Glyphs[]> {
  const reader = page.streamTextContent().getReader();
  const pieces: Glyphs[] = [];
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const items = (chunk.value as { items: unknown[] }).items;
      pieceBudget.add(items.length);
      for (const item of items) {
        if (!item || typeof item !== 'object' || !('str' in item)) continue;
        const piece = item as TextItem;
        budget.add(piece.str.length);
        if (piece.str.trim() === '') continue;
        const [a, b, c, d, x, y] = piece.transform as number[];
        const size = Math.hypot(c!, d!) || Math.hypot(a!, b!) || piece.height || 10;
        pieces.push({
          text: piece.str,
          x: x!,
          y: y!,
          width: piece.width,
          size,
          rtl: piece.dir === 'rtl' || count(piece.str, RTL_CHARS) > count(piece.str, LTR_CHARS),
        });
      }
    }
  } finally {
    // Not reader.cancel(): pdf.js (in this thread) keeps enqueueing into a cancelled stream and throws
    // out of its own callbacks. Left unread, the stream stops at its high-water mark, and destroying the
    // document (extractPdf's `finally`) ends the work.
    page.cleanup();
  }
  return pieces;
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

  // Loops, not Math.max(...spread): a page can have more lines than a call has room for arguments.
  const widest = lines.reduce((max, line) => Math.max(max, lineWidth(line)), 0);
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
    // Only the end of the text is looked at: a regex anchored at `$` still scans the whole string, which on
    // a page of a hundred thousand lines made this quadratic.
    else if (/\p{L}-$/u.test(text.slice(-4)) && /^\p{Ll}/u.test(content)) text = text.slice(0, -1) + content;
    else {
      // A line that fills the measure is a soft wrap inside a sentence; a short one ends a line on purpose.
      const softWrap = lineWidth(previous) > 0.8 * widest && !/[.!?:;׃]$/.test(text.slice(-1));
      text += (softWrap ? ' ' : '\n') + content;
    }
  });
  return text;
}

function lineWidth(line: Line): number {
  let left = Infinity;
  let right = -Infinity;
  for (const item of line.items) {
    left = Math.min(left, item.x);
    right = Math.max(right, item.x + item.width);
  }
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
      tokens.push(
        gap > 0.15 * Math.max(item.size, before.size) && !/\s$/.test(before.text) && !/^\s/.test(item.text) ? ' ' : '',
      );
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
