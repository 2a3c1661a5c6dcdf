/**
 * The built-in engine's answer quality, before and after issue 12:
 *   make bench-answers          → bench-results/answers.json
 *
 * `after` is measured now on real Postgres: the labelled answer set (services/src/knowledge/eval/answers-set,
 * 105 questions over 12 documents in four assistants) through ingestion, retrieval and the built-in engine,
 * and recall@5 on the labelled retrieval set. `before` is the same sets measured on the engine as it was
 * (services/src/knowledge/eval/answers-baseline.json, commit named there): the old engine no longer exists
 * in the tree, so its figures are recorded, not re-run.
 */
import { builtinAnswerEngine, evaluateAnswers, formatAnswerEvaluation } from '@kesher/services/knowledge/eval/answers-eval';
import { evaluateRetrieval, formatEvaluation } from '@kesher/services/knowledge/eval/retrieval-eval';
import { createPgSql } from '@kesher/services/platform/sql/pg.sql';
import type { Sql } from '@kesher/services/platform/sql/sql.port';
import { createTestDatabase } from '@kesher/services/testing/test-database';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { repoRoot, round, writeResults } from './bench-kit.js';

async function onFreshDatabase<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
  const db = await createTestDatabase();
  const sql = createPgSql({ connectionString: db.url });
  try {
    return await work(sql);
  } finally {
    await sql.close();
    await db.drop();
  }
}

const baseline = JSON.parse(readFileSync(resolve(repoRoot, 'services/src/knowledge/eval/answers-baseline.json'), 'utf8')) as {
  commit: string;
  answers: Record<string, number>;
  retrieval: Record<string, number>;
};

const started = performance.now();
const answers = await onFreshDatabase((sql) => evaluateAnswers(sql, builtinAnswerEngine));
console.log(formatAnswerEvaluation(answers, 'now'));
const retrieval = await onFreshDatabase((sql) => evaluateRetrieval(sql));
console.log(formatEvaluation(retrieval, 'now'));

const after = {
  ...answers.figures,
  recall_at_5_he: round(retrieval.he.recallAt5, 3),
  recall_at_5_en: round(retrieval.en.recallAt5, 3),
  mrr_he: round(retrieval.he.mrr, 3),
  mrr_en: round(retrieval.en.mrr, 3),
};
writeResults('answers', {
  setup: {
    answers: 'services/src/knowledge/eval/answers-set: 105 questions (59 Hebrew, 14 without an answer in the knowledge) over 12 documents (DOCX, PDF, HTML pages with addresses, TXT, MD; Hebrew and English) in four assistants, each with distractors; retrieval k = 5, then the built-in engine',
    retrieval: 'services/src/knowledge/fixtures/retrieval: 50 labelled questions (28 Hebrew) over 13 public-domain texts',
    definitions: {
      fact_hit_rate: 'answerable questions whose answer contains the labelled fact (per language: _he, _en)',
      pollution_rate: 'answers quoting a sentence found only in files the question must not draw from',
      abstain_precision: "answers saying 'not in my knowledge' for a question the knowledge indeed cannot answer, over all such answers",
      abstain_recall: "unanswerable questions answered with 'not in my knowledge'",
    },
    before_commit: baseline.commit,
  },
  ...Object.fromEntries(Object.entries(after).map(([key, value]) => [key, value])),
  before: { ...baseline.answers, recall_at_5_he: baseline.retrieval.recall_at_5_he, recall_at_5_en: baseline.retrieval.recall_at_5_en, mrr_he: baseline.retrieval.mrr_he, mrr_en: baseline.retrieval.mrr_en },
  misses: answers.results.filter((r) => (r.fact !== null && !r.factHit) || (r.fact === null && !r.abstained) || r.polluting.length > 0).map((r) => ({ id: r.id, question: r.question, answer: r.answer })),
  elapsed_s: round((performance.now() - started) / 1000),
});
