import type { KnowledgeFileKind } from '@kesher/contracts';
import { readFileSync } from 'node:fs';
import { composeAnswerWithEvidence, noAnswerTexts } from '../../chat/index.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { retrieve } from '../search/retrieve.js';
import { buildDocx, type DocxBlock } from '../testing/office-builders.js';
import { writePdf } from '../testing/pdf-writer.js';
import { createKnowledgeHarness } from '../testing/knowledge-harness.js';

/**
 * The labelled sets: `tuned` (answers-set/) is the one the engine is tuned on; `heldout` (answers-heldout/)
 * was written from other material and measured before the engine changed for it, and is never tuned on:
 * it says how the engine does on knowledge nobody shaped it for. Its misses were read once after the first
 * change, so `heldout2` (answers-heldout-2/), written after the last change and measured blind, says it again.
 * Both were later read as tuning material, so `heldout3` (answers-heldout-3/), written at stop 30 from new kinds
 * of business before that stop's engine changes, was held out until it too was read as tuning material; `heldout4`
 * (answers-heldout-4/), written before the next stop's engine changes and measured blind, was read as tuning material
 * in the round after; `heldout5` (answers-heldout-5/), written blind by someone who had not read the engine while
 * that round changed it, is the one still held out.
 */
export type AnswerSetName = 'tuned' | 'heldout' | 'heldout2' | 'heldout3' | 'heldout4' | 'heldout5';
const setFolders: Record<AnswerSetName, URL> = {
  tuned: new URL('./answers-set/', import.meta.url),
  heldout: new URL('./answers-heldout/', import.meta.url),
  heldout2: new URL('./answers-heldout-2/', import.meta.url),
  heldout3: new URL('./answers-heldout-3/', import.meta.url),
  heldout4: new URL('./answers-heldout-4/', import.meta.url),
  heldout5: new URL('./answers-heldout-5/', import.meta.url),
};

interface SetDocument {
  /** The name the file is listed and cited under (a crawled page: its title). */
  file: string;
  source: string;
  kind: KnowledgeFileKind;
  sourceUrl?: string;
}

export interface LabelledAnswer {
  id: string;
  assistant: string;
  language: 'he' | 'en';
  question: string;
  /**
   * What the answer must contain, or a list of acceptable forms (an answer in the question's language may
   * give "Monday" as "שני"); null when the knowledge does not hold the answer.
   */
  fact: string | string[] | null;
  /** The only files the answer may quote. */
  from: string[];
}

interface AnswerSet {
  assistants: Record<string, SetDocument[]>;
  questions: LabelledAnswer[];
}

/** A retrieved passage, as much of it as the evaluation needs to hand to the engine. */
export interface EvalPassage {
  fileId: string;
  filename: string;
  sourceUrl: string | null;
  section: string | null;
  text: string;
  score: number;
}

/** The engine under test: the knowledge search and the answer composed from it, as chat runs them. */
export interface AnswerEngine {
  retrieve(sql: Sql, input: { assistantId: string; question: string; k: number }): Promise<EvalPassage[]>;
  answer(input: { question: string; language: 'he' | 'en'; passages: EvalPassage[] }): {
    text: string;
    quotedFile: string | null;
  };
  /** True when the answer says the knowledge has no answer. */
  abstained(answer: string): boolean;
}

export interface AnswerResult extends LabelledAnswer {
  answer: string;
  factHit: boolean;
  abstained: boolean;
  /** Quoted sentences that come from a file the question must not draw from. */
  polluting: { file: string; sentence: string }[];
  /** Whether a file the answer may draw from was among the k passages retrieved. */
  retrievedFrom: boolean;
}

export interface AnswerFigures {
  questions: number;
  answerable: number;
  unanswerable: number;
  /** Share of answerable questions whose answer contains the expected fact. */
  fact_hit_rate: number;
  fact_hit_rate_he: number;
  fact_hit_rate_en: number;
  /** Share of all answers quoting a sentence from a file that does not address the question. */
  pollution_rate: number;
  /** Of the answers saying "not in my knowledge", the share where that was true. */
  abstain_precision: number;
  /** Of the questions the knowledge cannot answer, the share where the engine said so. */
  abstain_recall: number;
  /** Answerable questions with a passage of a file they may draw from among the k retrieved, per language. */
  recall_at_5_he: number;
  recall_at_5_en: number;
}

export interface AnswerEvaluation {
  figures: AnswerFigures;
  results: AnswerResult[];
}

const squash = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();

export function loadAnswerSet(name: AnswerSetName = 'tuned'): AnswerSet {
  return JSON.parse(readFileSync(new URL('set.json', setFolders[name]), 'utf8')) as AnswerSet;
}

const factsOf = (fact: string | string[]) => (Array.isArray(fact) ? fact : [fact]).map(squash);

/** `# ` lines are headings, blank lines end paragraphs. */
function blocksOf(source: string): { heading?: string; paragraphs: string[] }[] {
  const sections: { heading?: string; paragraphs: string[] }[] = [];
  for (const block of source
    .split(/\n{2,}/)
    .map((b) => b.trim())
    .filter(Boolean)) {
    if (block.startsWith('# ')) sections.push({ heading: block.slice(2).trim(), paragraphs: [] });
    else {
      if (sections.length === 0) sections.push({ paragraphs: [] });
      sections.at(-1)!.paragraphs.push(block);
    }
  }
  return sections;
}

/** The bytes of a document as an owner would upload it: Word and PDF files are built from their text sources. */
export function documentBytes(document: SetDocument, set: AnswerSetName = 'tuned'): Uint8Array {
  const source = readFileSync(new URL(`documents/${document.source}`, setFolders[set]));
  if (document.kind === 'docx') {
    const rtl = /[\u05D0-\u05EA]/.test(source.toString('utf8'));
    const blocks: DocxBlock[] = blocksOf(source.toString('utf8')).flatMap((section) => [
      ...(section.heading ? [{ heading: section.heading }] : []),
      ...section.paragraphs.map((paragraph) => ({ paragraph, rtl })),
    ]);
    return buildDocx(blocks);
  }
  if (document.kind === 'pdf')
    return writePdf(
      blocksOf(source.toString('utf8')).map((section) => ({
        heading: section.heading,
        paragraphs: section.paragraphs,
      })),
    );
  return new Uint8Array(source);
}

const sentencesOf = (text: string) =>
  text
    .split(/(?<=[.!?…](?:["'”’»)\]]*))\s+|\n+/u)
    .map(squash)
    .filter((sentence) => sentence.length > 0);

/**
 * Ingests the set's documents into their assistants through the real path (blob store → extraction →
 * chunking → projection), asks every question through the engine and scores the answers:
 * - a fact hit: the answer contains the labelled fact (whitespace-insensitive);
 * - pollution: a sentence of the answer is found in one of the assistant's files and in none of the
 *   files the question may draw from (sentences found in no file — the engine's own phrases, the source
 *   line — are not quotes), or the answer's one source (the file it quoted or restated in the question's
 *   language) is not one of them;
 * - abstaining: the engine's "not in my knowledge" answer.
 * A label whose fact is not in the text of its files is a broken label and fails the evaluation.
 */
export async function evaluateAnswers(
  sql: Sql,
  engine: AnswerEngine,
  options: { k?: number; set?: AnswerSetName } = {},
): Promise<AnswerEvaluation> {
  const k = options.k ?? 5;
  const setName = options.set ?? 'tuned';
  const set = loadAnswerSet(setName);
  const assistantIdOf = (assistant: string) => `asst-${setName === 'tuned' ? 'answers' : setName}-${assistant}`;
  const harness = await createKnowledgeHarness(sql);
  const texts = new Map<string, Map<string, string>>();
  for (const [assistant, documents] of Object.entries(set.assistants)) {
    const files = new Map<string, string>();
    for (const document of documents) {
      const { outcome } = await harness.addFile({
        assistantId: assistantIdOf(assistant),
        filename: document.file,
        kind: document.kind,
        bytes: documentBytes(document, setName),
        sourceUrl: document.sourceUrl ?? null,
      });
      if (!('ingested' in outcome)) throw new Error(`${document.source} did not ingest: ${outcome.failed.reason}`);
      files.set(document.file, squash((await harness.blobs.get(outcome.ingested.textSha256))!.toString('utf8')));
    }
    texts.set(assistant, files);
  }

  const results: AnswerResult[] = [];
  for (const question of set.questions) {
    const files = texts.get(question.assistant);
    if (!files) throw new Error(`label ${question.id}: no assistant ${question.assistant}`);
    const facts = question.fact === null ? [] : factsOf(question.fact);
    if (
      question.fact !== null &&
      !question.from.some((file) => facts.some((fact) => files.get(file)?.includes(fact)))
    ) {
      throw new Error(`label ${question.id}: "${facts.join('" / "')}" is not in ${question.from.join(', ')}`);
    }
    const passages = await engine.retrieve(sql, {
      assistantId: assistantIdOf(question.assistant),
      question: question.question,
      k,
    });
    const { text: answer, quotedFile } = engine.answer({
      question: question.question,
      language: question.language,
      passages,
    });
    const polluting = sentencesOf(answer).flatMap((sentence) => {
      const quotedFrom = [...files].filter(([, text]) => text.includes(sentence)).map(([file]) => file);
      if (quotedFrom.length === 0 || quotedFrom.some((file) => question.from.includes(file))) return [];
      return [{ file: quotedFrom[0]!, sentence }];
    });
    // An answer restating a file's fact in the question's language quotes no sentence of it, but is still drawn from it.
    if (
      quotedFile !== null &&
      !question.from.includes(quotedFile) &&
      polluting.length === 0 &&
      !engine.abstained(answer)
    ) {
      polluting.push({ file: quotedFile, sentence: squash(answer) });
    }
    const abstained = engine.abstained(answer);
    results.push({
      ...question,
      answer,
      abstained,
      factHit: facts.some((fact) => squash(answer).includes(fact)),
      polluting,
      retrievedFrom: passages.some((passage) => question.from.includes(passage.filename)),
    });
  }
  return { figures: figuresOf(results), results };
}

const ratio = (part: number, whole: number) => (whole === 0 ? 1 : Number((part / whole).toFixed(3)));

export function figuresOf(results: readonly AnswerResult[]): AnswerFigures {
  const answerable = results.filter((r) => r.fact !== null);
  const unanswerable = results.filter((r) => r.fact === null);
  const hitRate = (subset: AnswerResult[]) => ratio(subset.filter((r) => r.factHit).length, subset.length);
  const abstained = results.filter((r) => r.abstained);
  return {
    questions: results.length,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    fact_hit_rate: hitRate(answerable),
    fact_hit_rate_he: hitRate(answerable.filter((r) => r.language === 'he')),
    fact_hit_rate_en: hitRate(answerable.filter((r) => r.language === 'en')),
    pollution_rate: ratio(results.filter((r) => r.polluting.length > 0).length, results.length),
    abstain_precision: ratio(abstained.filter((r) => r.fact === null).length, abstained.length),
    abstain_recall: ratio(unanswerable.filter((r) => r.abstained).length, unanswerable.length),
    recall_at_5_he: ratio(
      answerable.filter((r) => r.language === 'he' && r.retrievedFrom).length,
      answerable.filter((r) => r.language === 'he').length,
    ),
    recall_at_5_en: ratio(
      answerable.filter((r) => r.language === 'en' && r.retrievedFrom).length,
      answerable.filter((r) => r.language === 'en').length,
    ),
  };
}

/** A short report for the console: the figures, then every miss, wrong abstention and polluted answer. */
export function formatAnswerEvaluation(evaluation: AnswerEvaluation, label: string): string {
  const f = evaluation.figures;
  const lines = [
    `answer evaluation (${label}): ${f.questions} questions (${f.answerable} answerable, ${f.unanswerable} not)`,
    `  fact_hit_rate he=${f.fact_hit_rate_he} en=${f.fact_hit_rate_en} all=${f.fact_hit_rate}  pollution_rate=${f.pollution_rate}  abstain_precision=${f.abstain_precision}  abstain_recall=${f.abstain_recall}  recall@5 he=${f.recall_at_5_he} en=${f.recall_at_5_en}`,
  ];
  for (const r of evaluation.results) {
    const problems = [
      r.fact !== null && !r.factHit ? `missed "${[r.fact].flat().join('" / "')}"` : '',
      r.fact === null && !r.abstained ? 'answered an unanswerable question' : '',
      r.polluting.length > 0 ? `quoted ${r.polluting.map((p) => p.file).join(', ')}` : '',
    ].filter(Boolean);
    if (problems.length > 0)
      lines.push(`  ${r.id} ${r.question} → ${problems.join('; ')}\n      ${squash(r.answer).slice(0, 220)}`);
  }
  return lines.join('\n');
}

/** The engine chat runs with no AI key: the knowledge module's retrieval and the built-in answer engine. */
export const builtinAnswerEngine: AnswerEngine = {
  retrieve: (sql, input) => retrieve(sql, input),
  answer: ({ question, language, passages }) => {
    const composed = composeAnswerWithEvidence({
      question,
      language,
      passages,
      assistant: { name: 'Evaluation', instructions: '', salesMode: { enabled: false, salesPrompt: '' } },
    });
    return { text: composed.text, quotedFile: composed.evidence?.passage.filename ?? null };
  },
  abstained: (answer) => noAnswerTexts.some((text) => answer.includes(text)),
};
