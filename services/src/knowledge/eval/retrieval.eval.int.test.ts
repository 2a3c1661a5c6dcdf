import { describe, expect, it } from 'vitest';
import { createPgSql } from '../../platform/sql/pg.sql.js';
import { createTestDatabase, postgresAvailability, createTestPglite } from '../../testing/test-database.js';
import { evaluateRetrieval, formatEvaluation } from './retrieval-eval.js';

const gate = await postgresAvailability();

describe('retrieval on the labelled Hebrew and English set', () => {
  it.skipIf(!gate.available)(`finds the answering passage in the top 5 for at least 80% of questions in each language on Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`, async () => {
    const db = await createTestDatabase();
    const sql = createPgSql({ connectionString: db.url });
    try {
      const evaluation = await evaluateRetrieval(sql);
      console.log(formatEvaluation(evaluation, 'Postgres'));
      expect(evaluation.he.questions).toBeGreaterThanOrEqual(20);
      expect(evaluation.he.questions + evaluation.en.questions).toBeGreaterThanOrEqual(40);
      expect(evaluation.he.recallAt5).toBeGreaterThanOrEqual(0.8);
      expect(evaluation.en.recallAt5).toBeGreaterThanOrEqual(0.8);
    } finally {
      await sql.close();
      await db.drop();
    }
  });

  it('gives the same answers on PGlite, the embedded default', async () => {
    const sql = await createTestPglite();
    try {
      const evaluation = await evaluateRetrieval(sql);
      console.log(formatEvaluation(evaluation, 'PGlite'));
      expect(evaluation.he.recallAt5).toBeGreaterThanOrEqual(0.8);
      expect(evaluation.en.recallAt5).toBeGreaterThanOrEqual(0.8);
    } finally {
      await sql.close();
    }
  });
});
