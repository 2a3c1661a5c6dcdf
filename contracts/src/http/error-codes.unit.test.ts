import { describe, expect, it } from 'vitest';
import * as contracts from '../index.js';
import { createErrorCodes, errorCatalogues, errorCodeEntries, errorCodeFor } from './error-codes.js';

/** Values to word a parametrised text with: counts (1 is a singular), names, and a missing content type. */
const SAMPLES: unknown[][] = [[1], [42], [20_000], ['Title'], ['order_id'], [null]];

describe('error codes', () => {
  const entries = errorCodeEntries();

  it('covers every catalogue the contracts export', () => {
    const exported = Object.entries(contracts)
      .filter(
        ([name, value]) => /messages$/i.test(name) && !!value && typeof value === 'object' && !Array.isArray(value),
      )
      .map(([, value]) => value);
    const coded = new Set<unknown>(Object.values(errorCatalogues));
    expect(
      exported.filter((catalogue) => !coded.has(catalogue)),
      'a new catalogue: add it to errorCatalogues',
    ).toEqual([]);
    expect(entries.length).toBeGreaterThan(150);
  });

  it('gives every text its own code, and no two plain texts the same words', () => {
    const codes = entries.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    const plain = entries.filter(([, text]) => typeof text === 'string').map(([, text]) => text);
    const repeated = plain.filter((text, i) => plain.indexOf(text) !== i);
    expect(repeated, 'two entries with the same words cannot be told apart by the handler').toEqual([]);
  });

  it.each(entries.filter(([, text]) => typeof text === 'string'))('finds %s by its words', (code, text) => {
    expect(errorCodeFor(text as string)).toEqual({ code });
  });

  it.each(entries.filter(([, text]) => typeof text === 'function'))(
    'finds %s however it is worded, with its values',
    (code, text) => {
      const words = text as (...args: unknown[]) => string;
      let worded = 0;
      for (const sample of SAMPLES) {
        const args = Array.from({ length: words.length }, () => sample[0]);
        let said: string;
        try {
          said = words(...args);
        } catch {
          continue; // a value of the wrong type for this text (null for a number)
        }
        worded++;
        const found = errorCodeFor(said);
        expect(found?.code, said).toBe(code);
        // The values come back as the text shows them, so the client can word them again.
        for (const value of found!.args!) expect(said).toContain(value);
      }
      expect(worded).toBeGreaterThanOrEqual(5);
    },
  );

  it('hands back the values in parameter order', () => {
    expect(errorCodeFor(contracts.automationMessages.unknownPlaceholder('Body template', 'order_id'))).toEqual({
      code: 'automation.unknownPlaceholder',
      args: ['Body template', 'order_id'],
    });
    expect(errorCodeFor(contracts.messages.assistantLimitReached(1))).toEqual({
      code: 'common.assistantLimitReached',
      args: ['1'],
    });
    expect(errorCodeFor(contracts.automationMessages.actionTooLarge(512 * 1024))).toEqual({
      code: 'automation.actionTooLarge',
      args: ['512'],
    });
    // A value shown rounded (bytes as KB) comes back as shown, even where the rounding makes it 0.
    expect(errorCodeFor(contracts.automationMessages.actionTooLarge(42))).toEqual({
      code: 'automation.actionTooLarge',
      args: ['0'],
    });
    expect(errorCodeFor(contracts.automationMessages.actionUnreachable('connection refused'))?.code).toBe(
      'automation.actionUnreachable',
    );
  });

  it('tries the most specific wording first, whatever order the catalogues come in', () => {
    const broad = { reached: (what: string, why: string) => `${what} could not be reached: ${why}` };
    const narrow = { reached: (why: string) => `The API could not be reached: ${why}` };
    for (const codeFor of [createErrorCodes({ broad, narrow }), createErrorCodes({ narrow, broad })]) {
      expect(codeFor('The API could not be reached: timeout')).toEqual({ code: 'narrow.reached', args: ['timeout'] });
      expect(codeFor('Telegram could not be reached: 401')).toEqual({
        code: 'broad.reached',
        args: ['Telegram', '401'],
      });
    }
  });

  it('names a nested text by its path and leaves texts outside the catalogues without a code', () => {
    expect(errorCodeFor(contracts.integrationMessages.paused.telegram)).toEqual({
      code: 'integration.paused.telegram',
    });
    expect(errorCodeFor('Something the catalogues never said.')).toBeUndefined();
  });
});
