/**
 * Retrieval's two ways of finding a question's hits, by the size of the assistant's knowledge (issue 23: the
 * worker's wait before the model). Reading the assistant's passages costs in proportion to them; one GIN
 * lookup per question term costs about the same at any size. Both run on the same data and questions, on
 * the real Postgres, each assistant alone in its table (the case where the planner once preferred a scan
 * to the index); the figures set `defaultRetrievalTuning.readPassagesUpTo`, and every question's passages
 * must be the same either way.
 *
 *   make bench-retrieval        bench-results/retrieval-paths.json
 */
import { defaultRetrievalTuning, retrieve } from '@kesher/services/knowledge/search/retrieve';
import { percentile, round, writeResults } from './bench-kit.js';
import { benchQuestions, bulkLoad, withDatabase } from './knowledge.bench.js';

const SIZES = (process.env.BENCH_RETRIEVAL_SIZES ?? '80,150,300,500,1000,2000').split(',').map(Number);
const ASSISTANT = 'asst-paths';

async function measure(passages: number) {
  return withDatabase(async (sql) => {
    await bulkLoad(sql, [ASSISTANT], passages);
    const questions = await benchQuestions(sql, ASSISTANT);
    const paths = {
      reading: { ...defaultRetrievalTuning, readPassagesUpTo: 2 ** 31 - 1 },
      index: { ...defaultRetrievalTuning, readPassagesUpTo: 0 },
    };
    const timings = { reading: [] as number[], index: [] as number[] };
    let differing = 0;
    for (const [round, question] of [...questions.slice(0, 10), ...questions].entries()) {
      const found: string[] = [];
      for (const [path, tuning] of Object.entries(paths) as [keyof typeof paths, typeof defaultRetrievalTuning][]) {
        const started = performance.now();
        const passagesFound = await retrieve(sql, { assistantId: ASSISTANT, question }, tuning);
        if (round >= 10) timings[path].push(performance.now() - started);
        // Scores are sums of floats, added in another order by each path: the ninth decimal is enough.
        found.push(JSON.stringify(passagesFound.map((p) => [p.fileId, p.text.slice(0, 40), p.score.toFixed(9)])));
      }
      if (round >= 10 && found[0] !== found[1]) differing++;
    }
    const figure = (values: number[]) => {
      const ordered = values.sort((a, b) => a - b);
      return { p50: round(percentile(ordered, 50), 2), p95: round(percentile(ordered, 95), 2) };
    };
    return {
      passages,
      reading_ms: figure(timings.reading),
      index_ms: figure(timings.index),
      questions: questions.length,
      differing,
    };
  });
}

const rows = [];
for (const size of SIZES) {
  const row = await measure(size);
  console.log(JSON.stringify(row));
  rows.push(row);
}
writeResults('retrieval-paths', {
  command: 'make bench-retrieval',
  threshold: defaultRetrievalTuning.readPassagesUpTo,
  note: 'ms per question; reading = the passages read one by one, index = one GIN lookup per term',
  sizes: rows,
});
process.exit(0);
