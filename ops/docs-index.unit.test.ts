import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const docs = fileURLToPath(new URL('../docs/', import.meta.url));
const index = readFileSync(`${docs}README.md`, 'utf8');
/** The pages the index lists: each bullet starts with the page's file name in backticks. */
const listed = [...index.matchAll(/^- `([^`]+)`/gm)].map((match) => match[1]!);

describe('docs/README.md', () => {
  it('lists every page of docs/', () => {
    const pages = readdirSync(docs).filter((name) => name !== 'README.md' && /\.(md|json)$/.test(name));
    expect(
      pages.filter((page) => !listed.includes(page)),
      'pages the index does not list',
    ).toEqual([]);
  });

  it('lists only pages that exist', () => {
    expect(
      listed.filter((page) => !existsSync(`${docs}${page}`)),
      'listed pages that are missing',
    ).toEqual([]);
  });
});
