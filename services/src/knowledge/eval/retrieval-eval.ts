import type { KnowledgeFileKind } from '@kesher/contracts';
import { retrieve, type RetrievalTuning } from '../search/retrieve.js';
import { readdirSync, readFileSync } from 'node:fs';
import type { Sql } from '../../platform/sql/sql.port.js';
import { buildDocx } from '../testing/office-builders.js';
import { createKnowledgeHarness } from '../testing/knowledge-harness.js';
import type { Embedder } from '../embeddings/embedder.port.js';
import { createEmbeddingIndexer } from '../embeddings/embedding-indexer.js';
import { createVectorIndex } from '../embeddings/vector-index.js';
import { createHybridRetrieve } from '../search/hybrid-retrieve.js';

const corpus = new URL('../fixtures/retrieval/', import.meta.url);

interface LabelledQuestion {
  id: string;
  language: 'he' | 'en';
  document: string;
  question: string;
  passage: string;
}

export interface QuestionResult extends LabelledQuestion {
  /** 1-based rank of the first relevant passage, or null when none is in the top k. */
  rank: number | null;
  top: { document: string; text: string }[];
}

export interface LanguageFigures {
  questions: number;
  recallAt5: number;
  mrr: number;
}

export interface RetrievalEvaluation {
  he: LanguageFigures;
  en: LanguageFigures;
  overall: LanguageFigures;
  results: QuestionResult[];
}

export const EVAL_ASSISTANT = 'asst-eval';

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

export function loadQuestions(): LabelledQuestion[] {
  return (JSON.parse(readFileSync(new URL('questions.json', corpus), 'utf8')) as { questions: LabelledQuestion[] })
    .questions;
}

/** The corpus documents, keyed as the questions name them ("he/settlement-queue.txt"). */
export function loadDocuments(): { document: string; bytes: Uint8Array }[] {
  return ['en', 'he'].flatMap((language) =>
    readdirSync(new URL(`${language}/`, corpus))
      .sort()
      .map((name) => ({
        document: `${language}/${name}`,
        bytes: new Uint8Array(readFileSync(new URL(`${language}/${name}`, corpus))),
      })),
  );
}

/**
 * Ingests the labelled corpus into one assistant through the real path (blob store → extraction →
 * chunking → projection), asks every labelled question and measures recall@5 and MRR per language.
 * One Hebrew text goes in as a Word document, so the Office path is measured too. A label whose phrase
 * is not in its document's text is a broken label and fails the evaluation outright.
 */
export async function evaluateRetrieval(
  sql: Sql,
  options: { k?: number; tuning?: RetrievalTuning; embedder?: Embedder } = {},
): Promise<RetrievalEvaluation> {
  const k = options.k ?? 5;
  const harness = await createKnowledgeHarness(sql);
  const documentOf = new Map<string, string>();
  const texts = new Map<string, string>();
  for (const { document, bytes } of loadDocuments()) {
    const asDocx = document === 'he/settlement-queue.txt';
    const extension = document.split('.').pop() as KnowledgeFileKind;
    const content = asDocx
      ? buildDocx(
          new TextDecoder()
            .decode(bytes)
            .split(/\n{2,}/)
            .map((paragraph) => ({ paragraph, rtl: true })),
        )
      : bytes;
    const { uploaded, outcome } = await harness.addFile({
      assistantId: EVAL_ASSISTANT,
      filename: asDocx ? document.replace(/^he\//, '').replace(/\.txt$/, '.docx') : document.split('/').pop()!,
      kind: asDocx ? 'docx' : extension,
      bytes: content,
    });
    if (!('ingested' in outcome)) throw new Error(`${document} did not ingest: ${outcome.failed.reason}`);
    documentOf.set(uploaded.fileId, document);
    texts.set(document, squash((await harness.blobs.get(outcome.ingested.textSha256))!.toString('utf8')));
  }

  // With an embedder: every passage gets its vector first, and questions go through hybrid retrieval
  // (the knowledge_embeddings table must exist: embedding.migrations.ts).
  const hybrid =
    options.embedder && createHybridRetrieve({ db: sql, embedder: options.embedder, questionTimeoutMs: 30_000 });
  if (options.embedder)
    await createEmbeddingIndexer({ embedder: options.embedder, index: createVectorIndex(sql) }).drain();

  const results: QuestionResult[] = [];
  for (const question of loadQuestions()) {
    if (!texts.get(question.document)?.includes(squash(question.passage))) {
      throw new Error(`label ${question.id}: "${question.passage}" is not in ${question.document}`);
    }
    const passages = hybrid
      ? await hybrid({ assistantId: EVAL_ASSISTANT, question: question.question, k })
      : await retrieve(sql, { assistantId: EVAL_ASSISTANT, question: question.question, k }, options.tuning);
    const top = passages.map((passage) => ({
      document: documentOf.get(passage.fileId) ?? passage.fileId,
      text: passage.text,
    }));
    const index = top.findIndex(
      (passage) => passage.document === question.document && squash(passage.text).includes(squash(question.passage)),
    );
    results.push({ ...question, rank: index === -1 ? null : index + 1, top });
  }

  const figures = (subset: QuestionResult[]): LanguageFigures => ({
    questions: subset.length,
    recallAt5: subset.filter((result) => result.rank !== null && result.rank <= 5).length / subset.length,
    mrr: subset.reduce((sum, result) => sum + (result.rank ? 1 / result.rank : 0), 0) / subset.length,
  });
  return {
    he: figures(results.filter((result) => result.language === 'he')),
    en: figures(results.filter((result) => result.language === 'en')),
    overall: figures(results),
    results,
  };
}

/** A short report for the console: the figures and every question that missed. */
export function formatEvaluation(evaluation: RetrievalEvaluation, label: string): string {
  const line = (name: string, f: LanguageFigures) =>
    `  ${name.padEnd(8)} questions=${f.questions}  recall@5=${f.recallAt5.toFixed(3)}  MRR=${f.mrr.toFixed(3)}`;
  const misses = evaluation.results
    .filter((result) => result.rank === null)
    .map(
      (result) =>
        `  miss ${result.id}: ${result.question}\n       top: ${result.top.map((t) => t.document).join(', ') || '(nothing)'}`,
    );
  return [
    `retrieval evaluation (${label})`,
    line('hebrew', evaluation.he),
    line('english', evaluation.en),
    line('overall', evaluation.overall),
    ...misses,
  ].join('\n');
}
