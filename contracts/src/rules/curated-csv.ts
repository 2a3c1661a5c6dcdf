/**
 * The Q&A list as CSV (`question,answer`, RFC 4180: quoted fields, doubled quotes, line breaks inside
 * quotes). A cell a spreadsheet would run as a formula (=, +, -, @) is written after an apostrophe and
 * read back without it, so an export opened in a spreadsheet is safe and an import gets the owner's text.
 */
export interface CsvQa {
  question: string;
  answer: string;
}

const FORMULA = /^[=+\-@\t\r]/;

function cell(text: string): string {
  const safe = FORMULA.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) || safe !== safe.trim() ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCuratedCsv(rows: readonly CsvQa[]): string {
  return ['question,answer', ...rows.map((row) => `${cell(row.question)},${cell(row.answer)}`)].join('\r\n') + '\r\n';
}

/** The CSV's records, each a list of fields; null when a quote is never closed. */
function records(csv: string): string[][] | null {
  const text = csv.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (quoted) return null;
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

const unescapeCell = (text: string) => (text.startsWith("'") && FORMULA.test(text.slice(1)) ? text.slice(1) : text);

/** The Q&A of a `question,answer` CSV (the header row optional); null when it is not such a CSV. */
export function parseCuratedCsv(csv: string): CsvQa[] | null {
  const rows = records(csv);
  if (!rows) return null;
  const body =
    rows[0] && rows[0][0]?.trim().toLowerCase() === 'question' && rows[0][1]?.trim().toLowerCase() === 'answer'
      ? rows.slice(1)
      : rows;
  if (body.some((r) => r.length !== 2)) return null;
  return body.map(([question, answer]) => ({
    question: unescapeCell(question!.trim()),
    answer: unescapeCell(answer!.trim()),
  }));
}
