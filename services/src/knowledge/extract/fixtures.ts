import { readFileSync } from 'node:fs';

/** A committed fixture file's bytes (see fixtures/make-fixtures.py for how they were made). */
export const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
