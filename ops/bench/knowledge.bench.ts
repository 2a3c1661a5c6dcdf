/**
 * Knowledge benchmarks on the real Postgres: ingestion throughput for PDF and Word files (upload blob →
 * extraction → chunking → blobs → projection, i.e. until the file is searchable), retrieval latency with
 * 100,000 passages, and retrieval quality on the labelled Hebrew/English set.
 *
 *   npx tsx ops/bench/knowledge.bench.ts      prints the figures as JSON
 *
 * `make bench-api` imports knowledgeFigures() and merges the figures into bench-results/api.json.
 */
import { knowledgeProjection, readBlobFromReadModel } from '@kesher/projections/knowledge/knowledge.projection';
import { toTsvectorLiteral } from '@kesher/contracts/rules/search-terms';
import { retrieve } from '@kesher/services/knowledge/search/retrieve';
import { evaluateRetrieval, loadDocuments, loadQuestions } from '@kesher/services/knowledge/eval/retrieval-eval';
import { buildDocx, type DocxBlock } from '@kesher/services/knowledge/testing/office-builders';
import { createKnowledgeHarness } from '@kesher/services/knowledge/testing/knowledge-harness';
import { writePdf, type PdfPage } from '@kesher/services/knowledge/testing/pdf-writer';
import { createPgSql } from '@kesher/services/platform/sql/pg.sql';
import { prepareReadModel } from '@kesher/services/platform/projections/projection-runner';
import type { Sql } from '@kesher/services/platform/sql/sql.port';
import { createTestDatabase } from '@kesher/services/testing/test-database';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { percentile, round } from './bench-kit.js';

const TOTAL_CHUNKS = Number(process.env.BENCH_KNOWLEDGE_CHUNKS ?? 100_000);
const ASSISTANTS_SPREAD = 10;
const QUESTIONS = 200;
const INGEST_MB = Number(process.env.BENCH_KNOWLEDGE_INGEST_MB ?? 4);

/** Deterministic pseudo-random numbers, so every run measures the same data. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Real sentences from the labelled corpus (English and Hebrew), the raw material of generated text. */
function corpusSentences(): { en: string[]; he: string[] } {
  const sentences = { en: [] as string[], he: [] as string[] };
  for (const { document, bytes } of loadDocuments()) {
    const text = new TextDecoder()
      .decode(bytes)
      .replace(/^---[\s\S]*?---/, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[#*_`>|]/g, ' ');
    const parts = text
      .split(/(?<=[.!?׃])\s+|\n+/)
      .map((part) => part.replace(/\s+/g, ' ').trim())
      .filter((part) => part.split(' ').length >= 6);
    sentences[document.startsWith('he/') ? 'he' : 'en'].push(...parts);
  }
  return sentences;
}

/**
 * Generated text with a realistic vocabulary: corpus sentences with a share of their words replaced by
 * words from a large Zipf-distributed vocabulary, so term frequencies have the long tail real documents have.
 */
function textGenerator(seed: number) {
  const next = random(seed);
  const { en, he } = corpusSentences();
  const syllables = {
    en: ['ka', 'ro', 'mi', 'ten', 'sha', 'vor', 'lin', 'dus', 'pe', 'gra', 'mon', 'tri'],
    he: ['של', 'מר', 'בט', 'קו', 'נח', 'רי', 'תם', 'גד', 'פס', 'לו', 'זכ', 'עו'],
  };
  const vocabulary = (language: 'en' | 'he') =>
    Array.from({ length: 40_000 }, (_, i) => {
      let word = '';
      for (let n = i + 7; n > 0; n = Math.floor(n / 12)) word += syllables[language][n % 12];
      return word;
    });
  const words = { en: vocabulary('en'), he: vocabulary('he') };
  const zipf = (size: number) => Math.min(size - 1, Math.floor(Math.exp(next() * Math.log(size)) - 1));
  const sentence = (language: 'en' | 'he') => {
    const pool = language === 'en' ? en : he;
    return pool[Math.floor(next() * pool.length)]!.split(' ')
      .map((word) => (next() < 0.3 ? words[language][zipf(words[language].length)]! : word))
      .join(' ');
  };
  return {
    next,
    sentence,
    /** About `targetWords` words of one language, as paragraphs. */
    paragraphs(language: 'en' | 'he', targetWords: number): string[] {
      const paragraphs: string[] = [];
      let count = 0;
      while (count < targetWords) {
        const paragraph = Array.from({ length: 3 + Math.floor(next() * 4) }, () => sentence(language)).join(' ');
        count += paragraph.split(' ').length;
        paragraphs.push(paragraph);
      }
      return paragraphs;
    },
  };
}

export async function withDatabase<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
  const db = await createTestDatabase('kesher_bench');
  const sql = createPgSql({ connectionString: db.url });
  try {
    return await work(sql);
  } finally {
    await sql.close();
    await db.drop();
  }
}

/** MB/s from upload to searchable, over files of about 200 KB that add up to INGEST_MB. */
async function ingestThroughput(
  kind: 'pdf' | 'docx',
): Promise<{ mbPerSecond: number; megabytes: number; files: number }> {
  const generator = textGenerator(kind === 'pdf' ? 1 : 2);
  const files: Uint8Array[] = [];
  let total = 0;
  while (total < INGEST_MB * 1024 * 1024) {
    let file: Uint8Array;
    if (kind === 'pdf') {
      // English only: the generated PDFs use the standard Helvetica font (Hebrew PDFs need embedded fonts).
      const pages: PdfPage[] = Array.from({ length: 40 }, (_, page) => ({
        heading: page % 5 === 0 ? generator.sentence('en').slice(0, 60) : undefined,
        paragraphs: generator.paragraphs('en', 450),
      }));
      file = writePdf(pages);
    } else {
      const blocks: DocxBlock[] = [];
      for (let section = 0; section < 60; section++) {
        const language = section % 2 === 0 ? 'he' : 'en';
        blocks.push({ heading: generator.sentence(language).split(' ').slice(0, 5).join(' ') });
        for (const paragraph of generator.paragraphs(language, 450)) blocks.push({ paragraph, rtl: language === 'he' });
      }
      file = buildDocx(blocks);
    }
    files.push(file);
    total += file.byteLength;
  }
  return withDatabase(async (sql) => {
    const harness = await createKnowledgeHarness(sql);
    const started = performance.now();
    for (const [i, bytes] of files.entries()) {
      const { outcome } = await harness.addFile({
        assistantId: 'asst-bench',
        filename: `file-${i}.${kind}`,
        kind,
        bytes,
      });
      if (!('ingested' in outcome)) throw new Error(`bench file ${i} failed: ${outcome.failed.reason}`);
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      mbPerSecond: round(total / 1024 / 1024 / seconds, 2),
      megabytes: round(total / 1024 / 1024, 2),
      files: files.length,
    };
  });
}

/**
 * Writes `total` passages as the projection would (same tables, same tsvector, same statistics),
 * spread over `assistants` assistants, with SQL bulk inserts instead of one event per file.
 */
export async function bulkLoad(sql: Sql, assistants: string[], total = TOTAL_CHUNKS) {
  const projection = knowledgeProjection({ readBlob: readBlobFromReadModel });
  await sql.transaction((tx) => prepareReadModel(tx, projection, false));
  await sql.query(`DROP INDEX IF EXISTS knowledge_chunks_terms`); // rebuilt once after the load, as a bulk load would
  const generator = textGenerator(3);
  const perFile = 50;
  const batch = 2000;
  for (let start = 0; start < total; start += batch) {
    const rows = Array.from({ length: Math.min(batch, total - start) }, (_, i) => {
      const n = start + i;
      const language = generator.next() < 0.5 ? 'he' : 'en';
      const text = generator.paragraphs(language, 120 + Math.floor(generator.next() * 120)).join('\n\n');
      const section = `Section ${n % 17}`;
      const assistant = assistants[n % assistants.length]!;
      return {
        assistant,
        content: `content-${Math.floor(n / (perFile * assistants.length))}-${n % assistants.length}`,
        index: Math.floor(n / assistants.length) % perFile,
        section,
        text,
        terms: toTsvectorLiteral(`${section}\n${text}`, assistant),
      };
    });
    await sql.query(
      `INSERT INTO knowledge_chunks (assistant_id, content_sha256, chunk_index, section, text, terms)
       SELECT a, c, i, s, t, v::tsvector FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[]) AS r(a, c, i, s, t, v)
       ON CONFLICT DO NOTHING`,
      [
        rows.map((r) => r.assistant),
        rows.map((r) => r.content),
        rows.map((r) => r.index),
        rows.map((r) => r.section),
        rows.map((r) => r.text),
        rows.map((r) => r.terms),
      ],
    );
  }
  await sql.query(`CREATE INDEX knowledge_chunks_terms ON knowledge_chunks USING gin (terms)`);
  await sql.query(
    `INSERT INTO knowledge_files (id, assistant_id, owner_id, filename, kind, bytes, source_url, content_sha256, status, created_at, updated_at)
     SELECT 'file-' || content_sha256, assistant_id, 'owner-bench', content_sha256 || '.pdf', 'pdf', 100000, NULL, content_sha256, 'ready', now(), now()
     FROM knowledge_chunks GROUP BY assistant_id, content_sha256`,
  );
  await sql.query(
    `INSERT INTO knowledge_contents (assistant_id, content_sha256, file_id, text, chunk_count)
     SELECT assistant_id, content_sha256, 'file-' || content_sha256, '', count(*) FROM knowledge_chunks GROUP BY assistant_id, content_sha256`,
  );
  await sql.query(
    `INSERT INTO knowledge_term_stats (assistant_id, term, chunks)
     SELECT assistant_id, u.lexeme, count(*) FROM knowledge_chunks, unnest(terms) AS u(lexeme, positions, weights)
     WHERE u.positions IS NOT NULL GROUP BY assistant_id, u.lexeme`,
  );
  await sql.query(
    `INSERT INTO knowledge_assistant_stats (assistant_id, chunks) SELECT assistant_id, count(*) FROM knowledge_chunks GROUP BY assistant_id`,
  );
  await sql.query(`VACUUM ANALYZE knowledge_chunks`);
  await sql.query(`ANALYZE`);
}

/** ~200 questions: the labelled ones plus questions made of words from random passages of the assistant. */
export async function benchQuestions(sql: Sql, assistantId: string): Promise<string[]> {
  const next = random(4);
  const { rows } = await sql.query<{ text: string }>(
    `SELECT text FROM knowledge_chunks WHERE assistant_id = $1 ORDER BY content_sha256, chunk_index LIMIT 2000`,
    [assistantId],
  );
  const questions = loadQuestions().map((question) => question.question);
  while (questions.length < QUESTIONS) {
    const words = rows[Math.floor(next() * rows.length)]!.text.split(/\s+/).filter((word) => word.length > 3);
    const picked = Array.from({ length: 3 + Math.floor(next() * 4) }, () => words[Math.floor(next() * words.length)]!);
    questions.push(
      /[\u05D0-\u05EA]/.test(picked.join(''))
        ? `מה כתוב על ${picked.join(' ')}?`
        : `What does it say about ${picked.join(' ')}?`,
    );
  }
  return questions;
}

async function retrievalLatency(
  assistants: string[],
): Promise<{ p50: number; p95: number; chunksInAssistant: number }> {
  return withDatabase(async (sql) => {
    await bulkLoad(sql, assistants);
    const target = assistants[0]!;
    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM knowledge_chunks WHERE assistant_id = $1`,
      [target],
    );
    const questions = await benchQuestions(sql, target);
    for (const question of questions.slice(0, 20)) await retrieve(sql, { assistantId: target, question }); // warm-up
    const timings: number[] = [];
    for (const question of questions) {
      const started = performance.now();
      await retrieve(sql, { assistantId: target, question });
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    return {
      p50: round(percentile(timings, 50), 2),
      p95: round(percentile(timings, 95), 2),
      chunksInAssistant: rows[0]!.n,
    };
  });
}

export async function knowledgeFigures() {
  const pdf = await ingestThroughput('pdf');
  const docx = await ingestThroughput('docx');
  const spread = await retrievalLatency(Array.from({ length: ASSISTANTS_SPREAD }, (_, i) => `asst-bench-${i}`));
  const single = await retrievalLatency(['asst-bench-all']);
  const quality = await withDatabase((sql) => evaluateRetrieval(sql));
  return {
    ingest_mb_per_s_pdf: pdf.mbPerSecond,
    ingest_mb_per_s_docx: docx.mbPerSecond,
    ingest_bench_files: {
      pdf: `${pdf.files} files, ${pdf.megabytes} MB`,
      docx: `${docx.files} files, ${docx.megabytes} MB`,
    },
    /** Worst case: one assistant holds all 100,000 passages. */
    retrieval_p95_ms_100k_chunks: single.p95,
    retrieval_p50_ms_100k_chunks: single.p50,
    /** 100,000 passages over 10 assistants; the questions go to one holding 10,000. */
    retrieval_p95_ms_10k_of_100k_chunks: spread.p95,
    retrieval_p50_ms_10k_of_100k_chunks: spread.p50,
    retrieval_recall_at_5: round(quality.overall.recallAt5, 3),
    retrieval_recall_at_5_he: round(quality.he.recallAt5, 3),
    retrieval_recall_at_5_en: round(quality.en.recallAt5, 3),
    retrieval_mrr: round(quality.overall.mrr, 3),
    retrieval_mrr_he: round(quality.he.mrr, 3),
    retrieval_mrr_en: round(quality.en.mrr, 3),
    retrieval_questions: { he: quality.he.questions, en: quality.en.questions },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await knowledgeFigures(), null, 2));
  process.exit(0);
}
