import { describe, expect, it } from 'vitest';
import type { Sql } from './sql.port.js';
import { withStatementTally } from './statement-tally.js';

const fake: Sql = {
  kind: 'postgres',
  query: async () => ({ rows: [] }),
  exec: async () => {},
  transaction: async (work) => work({ query: async () => ({ rows: [] }), exec: async () => {} }),
  listen: async () => async () => {},
  close: async () => {},
};

describe('statement tally', () => {
  it('counts statements by their text, apart inside and outside transactions, and starts again on reset', async () => {
    const tally = withStatementTally(fake);
    await tally.sql.query('SELECT 1');
    await tally.sql.query('SELECT   1');
    await tally.sql.transaction(async (tx) => {
      await tx.query('UPDATE t SET x = 1');
      await tx.query('SELECT 1');
    });
    expect(tally.read()).toMatchObject({
      transactions: 1,
      statements: [
        { text: 'SELECT 1', inTransaction: false, count: 2 },
        { text: 'UPDATE t SET x = 1', inTransaction: true, count: 1 },
        { text: 'SELECT 1', inTransaction: true, count: 1 },
      ],
    });
    tally.reset();
    expect(tally.read()).toMatchObject({ transactions: 0, statements: [] });
  });
});
