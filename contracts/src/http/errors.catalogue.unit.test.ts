import { describe, expect, it } from 'vitest';
import { passwordRules } from './auth.dto.js';
import { TEST_CARDS } from './billing.dto.js';
import { errorCodeFor } from './error-codes.js';
import { billingMessages, passwordMessages } from './errors.catalogue.js';

describe('the catalogue of texts once written at their throw sites', () => {
  it('names the two test cards the payment page takes (written out: the catalogue imports nothing)', () => {
    expect(billingMessages.unknownCard).toContain(TEST_CARDS.success);
    expect(billingMessages.unknownCard).toContain(TEST_CARDS.declined);
  });

  it('gives every password rule its code, so a validation item is translated by it', () => {
    const said = new Set<string>(Object.values(passwordMessages));
    for (const rule of passwordRules) {
      expect(said).toContain(rule.message);
      expect(errorCodeFor(rule.message)?.code).toMatch(/^password\./);
    }
  });
});
