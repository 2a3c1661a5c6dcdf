import { describe, expect, it } from 'vitest';
import { createPgSql } from '../../platform/sql/pg.sql.js';
import { createTestDatabase, postgresAvailability, createTestPglite } from '../../testing/test-database.js';
import { defaultRetrievalTuning } from '../search/retrieve.js';
import { evaluateRetrieval, formatEvaluation } from './retrieval-eval.js';

const gate = await postgresAvailability();

describe('retrieval on the labelled Hebrew and English set', () => {
  it.skipIf(!gate.available)(
    `finds the answering passage in the top 5 for at least 80% of questions in each language on Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`,
    async () => {
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
    },
  );

  it.skipIf(!gate.available)(
    'ranks the same whether hits come from the index or from reading the passages',
    async () => {
      const evaluate = async (readPassagesUpTo: number) => {
        const db = await createTestDatabase();
        const sql = createPgSql({ connectionString: db.url });
        try {
          const evaluation = await evaluateRetrieval(sql, { tuning: { ...defaultRetrievalTuning, readPassagesUpTo } });
          return evaluation.results.map((result) => [
            result.id,
            result.rank,
            result.top.map((passage) => passage.text),
          ]);
        } finally {
          await sql.close();
          await db.drop();
        }
      };
      expect(await evaluate(0)).toEqual(await evaluate(defaultRetrievalTuning.readPassagesUpTo));
    },
  );

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
