import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Where schema may be written: a module's migration list, the journal itself, and the read models (their
 * projections' `migrations`, and helpers those lists are built from) — never their queries.
 */
const allowed = [
  /\.migrations\.ts$/,
  /platform\/event-store\/sql-event-store\.schema\.ts$/,
  /platform\/sql\/migrations\.ts$/,
  /^projections\/src\/(?!.*\.queries\.ts$)/,
];
const DDL =
  /\b(CREATE\s+(UNIQUE\s+)?(TABLE|INDEX|SEQUENCE|EXTENSION|VIEW|TYPE|(OR\s+REPLACE\s+)?FUNCTION)|ALTER\s+(TABLE|SEQUENCE))\b/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'testing' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('schema lives in migration lists', () => {
  it('no route, factory or adapter creates or alters a table (tests and test helpers may make scratch tables)', () => {
    const offenders = [...sources(join(root, 'services/src')), ...sources(join(root, 'projections/src'))]
      .map((path) => relative(root, path))
      .filter((path) => !allowed.some((pattern) => pattern.test(path)))
      .filter((path) => DDL.test(readFileSync(join(root, path), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
