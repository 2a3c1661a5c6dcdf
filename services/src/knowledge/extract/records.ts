import { CharacterBudget } from './extracted-text.js';

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
 * just that row's values. Rows are taken one at a time and every line is counted against the budget as
 * it is written: a header name repeats on every row, so a small sheet can expand to gigabytes of lines.
 */
export class RecordWriter {
  private header: readonly RecordCell[] | undefined;
  private names = new Map<number, string>();
  private records: string[] = [];

  constructor(private readonly budget: CharacterBudget = new CharacterBudget()) {}

  row(cells: readonly RecordCell[]): void {
    if (cells.length === 0) return;
    if (!this.header) {
      this.header = cells;
      this.names = new Map(cells.map((cell) => [cell.column, cell.value]));
      return;
    }
    const record = cells
      .map((cell) => `${this.names.get(cell.column) || columnName(cell.column)}: ${cell.value}`)
      .join('\n');
    this.budget.add(record.length + 2);
    this.records.push(record);
  }

  text(): string {
    if (!this.header) return '';
    if (this.records.length === 0) return this.header.map((cell) => cell.value).join('\n');
    return this.records.join('\n\n');
  }
}

export function recordLines(rows: readonly (readonly RecordCell[])[], budget?: CharacterBudget): string {
  const writer = new RecordWriter(budget);
  for (const row of rows) writer.row(row);
  return writer.text();
}

/** A row of strings as cells, dropping empty values. */
export function cellsOf(values: readonly string[]): RecordCell[] {
  return values.flatMap((value, column) =>
    value.trim() ? [{ column, value: value.trim().replace(/\s*\n\s*/g, ' ') }] : [],
  );
}
