import { strToU8, zipSync } from 'fflate';

/**
 * Minimal but valid Office Open XML packages for tests and benchmarks, written part by part the way
 * Office lays them out. Richer, tool-made files (LibreOffice) are committed under extract/fixtures.
 */

const xmlEscape = (text: string) =>
  text.replace(/[<>&"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[char]!);
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

/**
 * Every entry's modification time. A zip records the time it was made (to two seconds): left to the clock,
 * the same document built twice a few seconds apart had other bytes, so a test site's unchanged DOCX was a
 * new blob on one crawl and the same on the next, depending on how fast the machine was.
 */
const FIXED_MTIME = new Date(2025, 0, 1, 12, 0, 0);

function zip(parts: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(parts).map(([path, xml]) => [path, strToU8(xml)])), {
    level: 6,
    mtime: FIXED_MTIME,
  });
}

function relationships(rels: { id: string; type: string; target: string }[]): string {
  return `${XML}<Relationships xmlns="${PKG_REL}">${rels.map((rel) => `<Relationship Id="${rel.id}" Type="${REL}/${rel.type}" Target="${rel.target}"/>`).join('')}</Relationships>`;
}

function contentTypes(overrides: Record<string, string>): string {
  return `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${Object.entries(
    overrides,
  )
    .map(([part, type]) => `<Override PartName="/${part}" ContentType="${type}"/>`)
    .join('')}</Types>`;
}

export type DocxBlock =
  { heading: string; level?: 1 | 2 | 3 } | { paragraph: string; rtl?: boolean } | { table: string[][] };

/** A Word document with real heading styles (mammoth maps them by style name, as it does for Word's own files). */
export function buildDocx(blocks: readonly DocxBlock[]): Uint8Array {
  return zip(docxParts(blocks));
}

/** The parts of that document, path → XML (the bomb builders swap one part for their own). */
export function docxParts(blocks: readonly DocxBlock[]): Record<string, string> {
  const run = (text: string) => `<w:r><w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r>`;
  const body = blocks
    .map((block) => {
      if ('heading' in block)
        return `<w:p><w:pPr><w:pStyle w:val="Heading${block.level ?? 1}"/></w:pPr>${run(block.heading)}</w:p>`;
      if ('paragraph' in block)
        return `<w:p>${block.rtl ? '<w:pPr><w:bidi/></w:pPr>' : ''}${run(block.paragraph)}</w:p>`;
      return `<w:tbl>${block.table.map((row) => `<w:tr>${row.map((cell) => `<w:tc><w:p>${run(cell)}</w:p></w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;
    })
    .join('');
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const styles = [1, 2, 3]
    .map(
      (level) => `<w:style w:type="paragraph" w:styleId="Heading${level}"><w:name w:val="heading ${level}"/></w:style>`,
    )
    .join('');
  return {
    '[Content_Types].xml': contentTypes({
      'word/document.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
      'word/styles.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml',
    }),
    '_rels/.rels': relationships([{ id: 'rId1', type: 'officeDocument', target: 'word/document.xml' }]),
    'word/_rels/document.xml.rels': relationships([{ id: 'rId1', type: 'styles', target: 'styles.xml' }]),
    'word/document.xml': `${XML}<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
    'word/styles.xml': `${XML}<w:styles xmlns:w="${W}">${styles}</w:styles>`,
  };
}

/** A workbook of sheets given as rows of strings and numbers (strings inline, numbers as numbers). */
export function buildXlsx(sheets: readonly { name: string; rows: (string | number | null)[][] }[]): Uint8Array {
  return zip(xlsxParts(sheets));
}

export function xlsxParts(
  sheets: readonly { name: string; rows: (string | number | null)[][] }[],
): Record<string, string> {
  const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const column = (i: number) => String.fromCharCode(65 + i);
  const sheetXml = (rows: (string | number | null)[][]) =>
    `${XML}<worksheet xmlns="${S}"><sheetData>${rows
      .map(
        (row, r) =>
          `<row r="${r + 1}">${row
            .map((value, c) => {
              const ref = `${column(c)}${r + 1}`;
              if (value === null) return '';
              return typeof value === 'number'
                ? `<c r="${ref}"><v>${value}</v></c>`
                : `<c r="${ref}" t="inlineStr"><is><t>${xmlEscape(value)}</t></is></c>`;
            })
            .join('')}</row>`,
      )
      .join('')}</sheetData></worksheet>`;
  const parts: Record<string, string> = {
    '[Content_Types].xml': contentTypes({
      'xl/workbook.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
      ...Object.fromEntries(
        sheets.map((_, i) => [
          `xl/worksheets/sheet${i + 1}.xml`,
          'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml',
        ]),
      ),
    }),
    '_rels/.rels': relationships([{ id: 'rId1', type: 'officeDocument', target: 'xl/workbook.xml' }]),
    'xl/_rels/workbook.xml.rels': relationships(
      sheets.map((_, i) => ({ id: `rId${i + 1}`, type: 'worksheet', target: `worksheets/sheet${i + 1}.xml` })),
    ),
    'xl/workbook.xml': `${XML}<workbook xmlns="${S}" xmlns:r="${REL}"><sheets>${sheets
      .map((sheet, i) => `<sheet name="${xmlEscape(sheet.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join('')}</sheets></workbook>`,
  };
  sheets.forEach((sheet, i) => (parts[`xl/worksheets/sheet${i + 1}.xml`] = sheetXml(sheet.rows)));
  return parts;
}

/** A deck of slides with a title placeholder and body paragraphs. */
export function buildPptx(slides: readonly { title?: string; body: string[] }[]): Uint8Array {
  return zip(pptxParts(slides));
}

export function pptxParts(slides: readonly { title?: string; body: string[] }[]): Record<string, string> {
  const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
  const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const paragraphs = (lines: string[]) =>
    lines.map((line) => `<a:p><a:r><a:t>${xmlEscape(line)}</a:t></a:r></a:p>`).join('');
  const shape = (id: number, lines: string[], placeholder?: string) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/><p:nvPr>${placeholder ? `<p:ph type="${placeholder}"/>` : ''}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs(lines)}</p:txBody></p:sp>`;
  const parts: Record<string, string> = {
    '[Content_Types].xml': contentTypes({
      'ppt/presentation.xml': 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
      ...Object.fromEntries(
        slides.map((_, i) => [
          `ppt/slides/slide${i + 1}.xml`,
          'application/vnd.openxmlformats-officedocument.presentationml.slide+xml',
        ]),
      ),
    }),
    '_rels/.rels': relationships([{ id: 'rId1', type: 'officeDocument', target: 'ppt/presentation.xml' }]),
    'ppt/_rels/presentation.xml.rels': relationships(
      slides.map((_, i) => ({ id: `rId${i + 1}`, type: 'slide', target: `slides/slide${i + 1}.xml` })),
    ),
    'ppt/presentation.xml': `${XML}<p:presentation xmlns:p="${P}" xmlns:r="${REL}"><p:sldIdLst>${slides
      .map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`)
      .join('')}</p:sldIdLst></p:presentation>`,
  };
  slides.forEach((slide, i) => {
    parts[`ppt/slides/slide${i + 1}.xml`] =
      `${XML}<p:sld xmlns:p="${P}" xmlns:a="${A}"><p:cSld><p:spTree>${slide.title ? shape(2, [slide.title], 'title') : ''}${shape(3, slide.body)}</p:spTree></p:cSld></p:sld>`;
  });
  return parts;
}
