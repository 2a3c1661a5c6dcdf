/** The column types analytics tables are written with. */
export type SqlType = 'text' | 'date' | 'int' | 'bigint' | 'float8' | 'boolean' | 'timestamptz';

/**
 * Many rows as ONE parameter: a JSON array of arrays, read back in SQL with `rowsFrom`. node-postgres
 * writes array parameters element by element in JavaScript (quoting and escaping each); JSON.stringify
 * does the same work natively, several times faster — what a rebuild writing a million rows spends
 * most of its time on otherwise. Null stays null.
 */
export const rowsParam = (rows: readonly (readonly unknown[])[]): string => JSON.stringify(rows);

/** `SELECT` of the rows in parameter `$param` (see rowsParam), one column per type, named `c0`, `c1`… */
export const rowsFrom = (param: number, types: readonly SqlType[]): string =>
  `SELECT ${types.map((type, i) => `(r->>${i})::${type} AS c${i}`).join(', ')} FROM jsonb_array_elements($${param}::jsonb) AS r`;
