import { deflateSync } from 'node:zlib';

/**
 * A small, honest PDF writer for tests and benchmarks: real PDF 1.4 files with a cross-reference table,
 * Flate-compressed page content and the standard Helvetica font, so pdf.js parses them exactly as it
 * parses what office software writes. Text is Latin-1 only (WinAnsi); Hebrew PDFs are committed fixtures
 * made by LibreOffice, which embeds the fonts a right-to-left script needs.
 */
export interface PdfPage {
  /** Paragraphs; each is wrapped to the page width. Empty for a page with no text (a "scan"). */
  paragraphs: string[];
  /** Draw a grey box, as an image-only page would have. */
  drawing?: boolean;
  /** A heading printed in bold above the paragraphs. */
  heading?: string;
}

const escape = (text: string) => text.replace(/[\\()]/g, (char) => `\\${char}`).replace(/[^\x20-\xff]/g, '?');

function wrap(paragraph: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > maxChars) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function pageContent(page: PdfPage): string {
  const ops: string[] = [];
  if (page.drawing) ops.push('0.6 g 72 300 450 400 re f 0 g');
  let y = 760;
  if (page.heading) {
    ops.push(`BT /F2 16 Tf 72 ${y} Td (${escape(page.heading)}) Tj ET`);
    y -= 30;
  }
  for (const paragraph of page.paragraphs) {
    for (const line of wrap(paragraph, 90)) {
      if (y < 60) break;
      ops.push(`BT /F1 11 Tf 72 ${y} Td (${escape(line)}) Tj ET`);
      y -= 14;
    }
    y -= 10;
  }
  return ops.join('\n');
}

export function writePdf(pages: readonly PdfPage[]): Uint8Array {
  return assemblePdf(pages.map((page) => deflateSync(Buffer.from(pageContent(page), 'latin1'))));
}

/**
 * A PDF whose pages have the given, already Flate-compressed content streams. The bomb builders use it
 * to wrap a stream they compressed themselves (a size no test could hold in memory uncompressed).
 */
export function assemblePdf(
  compressedContents: readonly Uint8Array[],
  options: { contentDictionary?: string; filter?: 'FlateDecode' | 'LZWDecode' } = {},
): Uint8Array {
  const objects: (string | Buffer)[] = [];
  const add = (body: string | Buffer) => objects.push(body) as number; // object number = index + 1
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // pages tree, filled in below
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const bold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const compressed of compressedContents) {
    const content = add(
      Buffer.concat([
        Buffer.from(
          `<< /Length ${compressed.length} /Filter /${options.filter ?? 'FlateDecode'} ${options.contentDictionary ?? ''}>>\nstream\n`,
        ),
        compressed,
        Buffer.from('\nendstream'),
      ]),
    );
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R /F2 ${bold} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(offset);
    const part = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    chunks.push(part);
    offset += part.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`),
  ].join('');
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  chunks.push(Buffer.from(xref + trailer, 'latin1'));
  return new Uint8Array(Buffer.concat(chunks));
}
