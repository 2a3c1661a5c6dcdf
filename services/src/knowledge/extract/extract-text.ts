import type { KnowledgeFileKind } from '@kesher/contracts';
import { knowledgeLimits } from '../limits.js';
import { extractCsv } from './csv.extractor.js';
import { extractDocx } from './docx.extractor.js';
import { finishExtraction, type DraftSection, type ExtractedText } from './extracted-text.js';
import { ExtractionError, extractionErrors } from './extraction-error.js';
import { extractJson } from './json.extractor.js';
import { extractMarkdown } from './markdown.extractor.js';
import { extractPdf } from './pdf.extractor.js';
import { extractHtml, extractPlainText } from './plain-text.extractor.js';
import { extractPptx } from './pptx.extractor.js';
import { isGzip, UnpackBudget } from './unpack-budget.js';
import { extractXlsx } from './xlsx.extractor.js';

export type { ExtractedSection, ExtractedText } from './extracted-text.js';
export { ExtractionError } from './extraction-error.js';

const extractors: Record<KnowledgeFileKind, (bytes: Uint8Array) => DraftSection[] | Promise<DraftSection[]>> = {
  pdf: extractPdf,
  docx: extractDocx,
  xlsx: extractXlsx,
  pptx: extractPptx,
  csv: extractCsv,
  json: extractJson,
  md: extractMarkdown,
  txt: extractPlainText,
  html: extractHtml,
};

/** Formats that are text on the wire, and so may arrive gzip-compressed (a crawled page, a compressed export). */
const TEXT_KINDS: ReadonlySet<KnowledgeFileKind> = new Set(['txt', 'csv', 'json', 'md', 'html']);

/**
 * Clean text and sections of a knowledge file. Every failure an owner can cause or fix is an
 * ExtractionError with a reason written for them; anything else escaping a parser is reported as a
 * damaged file, since from the owner's side that is what it is. `filename` is only for diagnostics.
 *
 * This runs in whatever thread calls it: untrusted files are read through the extraction sandbox
 * (../sandbox), which calls it inside a worker with a memory cap and a time limit.
 */
export async function extractText(
  bytes: Uint8Array,
  kind: KnowledgeFileKind,
  filename: string,
): Promise<ExtractedText> {
  if (bytes.byteLength > knowledgeLimits.maxSourceBytes) throw extractionErrors.tooBig();
  try {
    const source = TEXT_KINDS.has(kind) && isGzip(bytes) ? new UnpackBudget().inflate(bytes, 'gzip') : bytes;
    return finishExtraction(kind, await extractors[kind](source));
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw extractionErrors.corrupt(
      kind,
      new Error(`${filename}: ${error instanceof Error ? error.message : String(error)}`, { cause: error }),
    );
  }
}
