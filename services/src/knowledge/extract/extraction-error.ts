import type { KnowledgeFileKind } from '@kesher/contracts';
import { knowledgeLimits } from '../limits.js';

export type ExtractionFailure = 'corrupt' | 'encrypted' | 'empty' | 'too_large' | 'unsupported' | 'too_slow';

/**
 * Why a file could not become knowledge. `reason` is shown to the owner as it is (it ends up in
 * KnowledgeFileIngestionFailed), so it says what happened and what to do, never how the parser failed.
 */
export class ExtractionError extends Error {
  constructor(
    readonly failure: ExtractionFailure,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = 'ExtractionError';
  }
}

/** How the owner would name the file type. */
const kindNames: Record<KnowledgeFileKind, string> = {
  pdf: 'PDF',
  docx: 'Word document (.docx)',
  xlsx: 'Excel workbook (.xlsx)',
  pptx: 'PowerPoint presentation (.pptx)',
  csv: 'CSV file',
  json: 'JSON file',
  md: 'Markdown file',
  txt: 'text file',
  html: 'web page',
};

export const extractionErrors = {
  corrupt: (kind: KnowledgeFileKind, cause?: unknown) =>
    new ExtractionError(
      'corrupt',
      `The file could not be read: it looks damaged or is not a real ${kindNames[kind]}.`,
      { cause },
    ),

  encrypted: (kind: KnowledgeFileKind) =>
    new ExtractionError(
      'encrypted',
      kind === 'pdf'
        ? 'The PDF is password-protected. Remove the password and upload it again.'
        : `The ${kindNames[kind]} is password-protected. Remove the password and upload it again.`,
    ),

  empty: (kind: KnowledgeFileKind) =>
    new ExtractionError(
      'empty',
      kind === 'pdf'
        ? 'No text could be found in this file. If it is a scanned document, run it through text recognition (OCR) first.'
        : 'No text could be found in this file.',
    ),

  tooLarge: () =>
    new ExtractionError(
      'too_large',
      `The file has too much text: more than ${knowledgeLimits.maxExtractedCharacters.toLocaleString('en-US')} characters. Split it into smaller files and upload them separately.`,
    ),

  tooBig: () =>
    new ExtractionError(
      'too_large',
      `The file is too large to read (over ${Math.round(knowledgeLimits.maxSourceBytes / 1024 / 1024)} MB). Split it into smaller files and upload them separately.`,
    ),

  /** A decompression bomb, or a file whose reading needs more memory than a worker may have. */
  unpackedTooLarge: () =>
    new ExtractionError(
      'too_large',
      'The file is too large when unpacked: its compressed content expands to more than Kesher reads from one file. Split it into smaller files and upload them separately.',
    ),

  /** The worker reading it ran past its time limit (a file built to keep a parser busy, or simply too complex). */
  tookTooLong: (seconds: number) =>
    new ExtractionError(
      'too_slow',
      `The file took too long to read (more than ${seconds} seconds). Split it into smaller files or save it in a simpler format, then upload it again.`,
    ),

  legacyOffice: (kind: KnowledgeFileKind) =>
    new ExtractionError(
      'unsupported',
      `This is an older Office format, not a ${kindNames[kind]}. Open it and save it as ${kind === 'docx' ? '.docx' : kind === 'xlsx' ? '.xlsx' : '.pptx'}, then upload it again.`,
    ),
};
