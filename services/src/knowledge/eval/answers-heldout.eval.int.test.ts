import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPgSql } from '../../platform/sql/pg.sql.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import {
  builtinAnswerEngine,
  evaluateAnswers,
  formatAnswerEvaluation,
  type AnswerFigures,
  type AnswerSetName,
} from './answers-eval.js';

const gate = await postgresAvailability();

/**
 * The held-out sets: answers-heldout/ and answers-heldout-2/ were read as tuning material at stop 30, and
 * answers-heldout-3/ at issue 22 item 4. This test only guards that the engine does no worse on each than
 * before it was first measured (their before.json), and prints every miss. answers-heldout-4/, the one never
 * tuned on, is left out: its misses must not be printed while tuning, and its blind result after item 4 is
 * one Hebrew question below its before (docs/knowledge.md), which a guard would only hide by moving its floor.
 * Their figures against the issue's goal are reported by make bench-answers, not asserted here.
 */
const beforeOf = (folder: string, key: string) =>
  (
    JSON.parse(readFileSync(new URL(`./${folder}/before.json`, import.meta.url), 'utf8')) as Record<
      string,
      AnswerFigures
    >
  )[key]!;
const sets: { name: AnswerSetName; before: AnswerFigures; minQuestions: number }[] = [
  { name: 'heldout', before: beforeOf('answers-heldout', 'heldout'), minQuestions: 40 },
  { name: 'heldout2', before: beforeOf('answers-heldout-2', 'heldout2'), minQuestions: 30 },
  { name: 'heldout3', before: beforeOf('answers-heldout-3', 'heldout3'), minQuestions: 80 },
];

describe.skipIf(!gate.available)(
  `built-in answers on the held-out set${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    it.each(sets)(
      '$name: answers at least as well as before issue 22, in each language, and quotes no unrelated file more often',
      async ({ name, before, minQuestions }) => {
        const db = await createTestDatabase();
        const sql = createPgSql({ connectionString: db.url });
        let figures: AnswerFigures;
        try {
          const evaluation = await evaluateAnswers(sql, builtinAnswerEngine, { set: name });
          console.log(formatAnswerEvaluation(evaluation, `${name}, Postgres`));
          figures = evaluation.figures;
          expect(evaluation.results.filter((r) => r.language === 'he').length).toBeGreaterThanOrEqual(minQuestions / 2);
        } finally {
          await sql.close();
          await db.drop();
        }
        expect(figures.questions).toBeGreaterThanOrEqual(minQuestions);
        expect(figures.fact_hit_rate_he).toBeGreaterThanOrEqual(before.fact_hit_rate_he);
        expect(figures.fact_hit_rate_en).toBeGreaterThanOrEqual(before.fact_hit_rate_en);
        expect(figures.pollution_rate).toBeLessThanOrEqual(before.pollution_rate);
        expect(figures.abstain_precision).toBeGreaterThanOrEqual(before.abstain_precision);
      },
    );
  },
);
