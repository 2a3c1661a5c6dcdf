import { CharacterBudget, type DraftSection } from './extracted-text.js';
import { extractionErrors } from './extraction-error.js';
import { openOfficePackage, partRelationships, type OfficePackage } from './office-package.js';
import { childElements, elementText, findElements, firstChild, relationshipAttribute, type XmlElement } from './xml-tree.js';
import { recordLines } from './records.js';

const WORKBOOK = 'xl/workbook.xml';

/** Built-in number formats that display a date or a time (ECMA-376 §18.8.30, plus the East Asian ones). */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/**
 * An Excel workbook becomes one section per sheet, titled with the sheet's name; the first non-empty row
 * is taken as the header and every following row becomes "header: value" lines, one paragraph per row,
 * so a passage about a row still says what each value means.
 */
export function extractXlsx(bytes: Uint8Array): DraftSection[] {
  const pkg = openOfficePackage(bytes, 'xlsx', (path) => path.startsWith('xl/') && path.endsWith('.xml') || path.endsWith('.rels'));
  const workbook = pkg.xml(WORKBOOK);
  if (!workbook) throw extractionErrors.corrupt('xlsx');

  const relationships = partRelationships(pkg, WORKBOOK);
  const sharedStrings = readSharedStrings(pkg, relationships);
  const dateStyles = readDateStyles(pkg, relationships);
  const date1904 = findElements(workbook, 'workbookPr').some((pr) => pr.attributes.date1904 === '1' || pr.attributes.date1904 === 'true');
  const budget = new CharacterBudget();

  const sections: DraftSection[] = [];
  for (const sheet of findElements(workbook, 'sheet')) {
    if (sheet.attributes.state === 'hidden' || sheet.attributes.state === 'veryHidden') continue;
    const target = relationships.get(relationshipAttribute(sheet) ?? '');
    const worksheet = target && pkg.xml(target.path);
    if (!worksheet) continue;
    const rows = readRows(worksheet, (cell) => cellValue(cell, sharedStrings, dateStyles, date1904));
    const text = recordLines(rows);
    budget.add(text.length);
    sections.push({ title: sheet.attributes.name ?? null, text, titleInText: true });
  }
  return sections;
}

function readSharedStrings(pkg: OfficePackage, relationships: Map<string, { type: string; path: string }>): string[] {
  const target = [...relationships.values()].find((rel) => rel.type.endsWith('/sharedStrings'));
  const table = pkg.xml(target?.path ?? 'xl/sharedStrings.xml');
  // Phonetic guides (rPh) are reading aids for East Asian text, not part of the value.
  return table ? findElements(table, 'si').map((item) => elementText(item, 't', ['rPh'])) : [];
}

/** Style indexes (the `s` of a cell) whose number format shows a date. */
function readDateStyles(pkg: OfficePackage, relationships: Map<string, { type: string; path: string }>): Set<number> {
  const target = [...relationships.values()].find((rel) => rel.type.endsWith('/styles'));
  const styles = pkg.xml(target?.path ?? 'xl/styles.xml');
  const dates = new Set<number>();
  if (!styles) return dates;
  const customDateFormats = new Set(
    findElements(styles, 'numFmt')
      .filter((format) => isDateFormatCode(format.attributes.formatCode ?? ''))
      .map((format) => Number(format.attributes.numFmtId)),
  );
  const cellFormats = findElements(styles, 'cellXfs')[0];
  childElements(cellFormats ?? { name: '', attributes: {}, children: [] }, 'xf').forEach((xf, index) => {
    const id = Number(xf.attributes.numFmtId ?? 0);
    if (BUILT_IN_DATE_FORMATS.has(id) || customDateFormats.has(id)) dates.add(index);
  });
  return dates;
}

/** A format code shows a date when, outside quoted text and [colour]/[locale] brackets, it has d, m, y, h or s. */
function isDateFormatCode(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

type Cell = { column: number; value: string };

function readRows(worksheet: XmlElement, valueOf: (cell: XmlElement) => string): Cell[][] {
  const rows: Cell[][] = [];
  for (const row of findElements(worksheet, 'row')) {
    let next = 0;
    const cells: Cell[] = [];
    for (const cell of childElements(row, 'c')) {
      const column = cell.attributes.r ? columnIndex(cell.attributes.r) : next;
      next = column + 1;
      const value = valueOf(cell).trim().replace(/\s*\n\s*/g, ' ');
      if (value) cells.push({ column, value });
    }
    if (cells.length > 0) rows.push(cells);
  }
  return rows;
}

/** "C12" → 2. */
function columnIndex(reference: string): number {
  const letters = /^[A-Z]+/i.exec(reference)?.[0].toUpperCase() ?? 'A';
  return [...letters].reduce((n, letter) => n * 26 + letter.charCodeAt(0) - 64, 0) - 1;
}

function cellValue(cell: XmlElement, sharedStrings: string[], dateStyles: Set<number>, date1904: boolean): string {
  const type = cell.attributes.t ?? 'n';
  const raw = elementText(firstChild(cell, 'v') ?? { name: 'v', attributes: {}, children: [] }, 'v');
  switch (type) {
    case 's':
      return sharedStrings[Number(raw)] ?? '';
    case 'inlineStr':
      return elementText(firstChild(cell, 'is') ?? cell, 't', ['rPh']);
    case 'str':
      return raw;
    case 'b':
      return raw === '1' ? 'TRUE' : 'FALSE';
    case 'e':
      return '';
    default: {
      const style = Number(cell.attributes.s ?? -1);
      return raw && dateStyles.has(style) ? formatSerialDate(Number(raw), date1904) : raw;
    }
  }
}

/**
 * Excel stores dates as days since its epoch. The 1900 system counts a 29 February 1900 that never was,
 * which the 1899-12-30 origin absorbs for every date after it.
 */
export function formatSerialDate(serial: number, date1904 = false): string {
  if (!Number.isFinite(serial)) return String(serial);
  const origin = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const moment = new Date(origin + Math.round(serial * 86_400_000));
  const day = moment.toISOString().slice(0, 10);
  const time = moment.toISOString().slice(11, 16);
  if (serial < 1) return time;
  return Number.isInteger(serial) ? day : `${day} ${time}`;
}
