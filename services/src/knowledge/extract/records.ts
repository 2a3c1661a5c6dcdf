/** A non-empty value of a table row, with its 0-based column. */
export interface RecordCell {
  column: number;
  value: string;
}

/** "A", "B", … "AA": what a column is called when its header cell is empty. */
function columnName(column: number): string {
  let name = '';
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * Tabular data (CSV, spreadsheet sheets) as text a passage can stand on: the first row names the
 * columns, and each later row becomes a paragraph of "column: value" lines. A table of one row is
 * just that row's values.
 */
export function recordLines(rows: readonly (readonly RecordCell[])[]): string {
  const [header, ...records] = rows.filter((row) => row.length > 0);
  if (!header) return '';
  if (records.length === 0) return header.map((cell) => cell.value).join('\n');
  const names = new Map(header.map((cell) => [cell.column, cell.value]));
  return records
    .map((record) => record.map((cell) => `${names.get(cell.column) || columnName(cell.column)}: ${cell.value}`).join('\n'))
    .join('\n\n');
}

/** A row of strings as cells, dropping empty values. */
export function cellsOf(values: readonly string[]): RecordCell[] {
  return values.flatMap((value, column) => (value.trim() ? [{ column, value: value.trim().replace(/\s*\n\s*/g, ' ') }] : []));
}
