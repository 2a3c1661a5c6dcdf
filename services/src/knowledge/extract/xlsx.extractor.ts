import { Parser } from 'htmlparser2';
import { knowledgeLimits } from '../limits.js';
import { CharacterBudget, type DraftSection } from './extracted-text.js';
import { ExtractionError, extractionErrors } from './extraction-error.js';
import { openOfficePackage, partRelationships, type OfficePackage } from './office-package.js';
import { RecordWriter, type RecordCell } from './records.js';
import { childElements, elementText, findElements, relationshipAttribute, XmlTooDeepError } from './xml-tree.js';

const WORKBOOK = 'xl/workbook.xml';

/** Built-in number formats that display a date or a time (ECMA-376 §18.8.30, plus the East Asian ones). */
const BUILT_IN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);

/**
 * An Excel workbook becomes one section per sheet, titled with the sheet's name; the first non-empty row
 * is taken as the header and every following row becomes "header: value" lines, one paragraph per row,
 * so a passage about a row still says what each value means.
 */
export function extractXlsx(bytes: Uint8Array): DraftSection[] {
  const pkg = openOfficePackage(
    bytes,
    'xlsx',
    (path) => (path.startsWith('xl/') && path.endsWith('.xml')) || path.endsWith('.rels'),
  );
  const workbook = pkg.xml(WORKBOOK);
  if (!workbook) throw extractionErrors.corrupt('xlsx');

  const relationships = partRelationships(pkg, WORKBOOK);
  const sharedStrings = readSharedStrings(pkg, relationships);
  const dateStyles = readDateStyles(pkg, relationships);
  const date1904 = findElements(workbook, 'workbookPr').some(
    (pr) => pr.attributes.date1904 === '1' || pr.attributes.date1904 === 'true',
  );
  const budget = new CharacterBudget();

  const sections: DraftSection[] = [];
  for (const sheet of findElements(workbook, 'sheet')) {
    if (sheet.attributes.state === 'hidden' || sheet.attributes.state === 'veryHidden') continue;
    const target = relationships.get(relationshipAttribute(sheet) ?? '');
    const worksheet = target && pkg.text(target.path);
    if (!worksheet) continue;
    const records = new RecordWriter(budget);
    try {
      readSheetRows(
        worksheet,
        (cell) => cellValue(cell, sharedStrings, dateStyles, date1904),
        (row) => records.row(row),
      );
    } catch (error) {
      if (error instanceof ExtractionError) throw error;
      throw extractionErrors.corrupt('xlsx', error);
    }
    sections.push({ title: sheet.attributes.name ?? null, text: records.text(), titleInText: true });
  }
  return sections;
}

function readSharedStrings(pkg: OfficePackage, relationships: Map<string, { type: string; path: string }>): string[] {
  const target = [...relationships.values()].find((rel) => rel.type.endsWith('/sharedStrings'));
  // Counted on its own budget: strings used in the sheets are counted again there, as output.
  const table = pkg.xml(target?.path ?? 'xl/sharedStrings.xml', { textBudget: new CharacterBudget() });
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

/** A cell as the sheet XML gives it: its type (`t`), style (`s`), raw `<v>` and inline string. */
interface SheetCell {
  reference: string | undefined;
  type: string;
  style: number;
  raw: string;
  inline: string;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * Reads a worksheet's rows as the XML streams past, without building its tree: a sheet is by far the
 * largest part of a workbook, and each row goes straight to the record writer, which counts it.
 */
function readSheetRows(xml: string, valueOf: (cell: SheetCell) => string, onRow: (cells: RecordCell[]) => void): void {
  let depth = 0;
  let row: RecordCell[] | undefined;
  let next = 0;
  let cell: SheetCell | undefined;
  let inValue = false;
  let inText = false;
  let phonetic = 0;
  const parser = new Parser(
    {
      onopentag(tag, attributes) {
        if (++depth > knowledgeLimits.maxXmlDepth) throw new XmlTooDeepError(knowledgeLimits.maxXmlDepth);
        const name = localName(tag);
        if (name === 'row') {
          row = [];
          next = 0;
        } else if (name === 'c' && row)
          cell = {
            reference: attributes.r,
            type: attributes.t ?? 'n',
            style: Number(attributes.s ?? -1),
            raw: '',
            inline: '',
          };
        else if (name === 'v' && cell) inValue = true;
        else if (name === 'rPh') phonetic++;
        else if (name === 't' && cell && phonetic === 0) inText = true;
      },
      ontext(text) {
        if (!cell) return;
        if (inValue) cell.raw += text;
        else if (inText) cell.inline += text;
      },
      onclosetag(tag) {
        depth = Math.max(0, depth - 1);
        const name = localName(tag);
        if (name === 'v') inValue = false;
        else if (name === 't') inText = false;
        else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
        else if (name === 'c' && cell && row) {
          const column = cell.reference ? columnIndex(cell.reference) : next;
          next = column + 1;
          const value = valueOf(cell)
            .trim()
            .replace(/\s*\n\s*/g, ' ');
          if (value) row.push({ column, value });
          cell = undefined;
        } else if (name === 'row' && row) {
          onRow(row);
          row = undefined;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
}

/** "C12" → 2. */
function columnIndex(reference: string): number {
  const letters = /^[A-Z]+/i.exec(reference)?.[0].toUpperCase() ?? 'A';
  return [...letters].reduce((n, letter) => n * 26 + letter.charCodeAt(0) - 64, 0) - 1;
}

function cellValue(cell: SheetCell, sharedStrings: string[], dateStyles: Set<number>, date1904: boolean): string {
  switch (cell.type) {
    case 's':
      return sharedStrings[Number(cell.raw)] ?? '';
    case 'inlineStr':
      return cell.inline;
    case 'str':
      return cell.raw;
    case 'b':
      return cell.raw === '1' ? 'TRUE' : 'FALSE';
    case 'e':
      return '';
    default:
      return cell.raw && dateStyles.has(cell.style) ? formatSerialDate(Number(cell.raw), date1904) : cell.raw;
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
