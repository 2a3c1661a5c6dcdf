import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import type { KnowledgeFileKind } from '@kesher/contracts';
import {
  buildDocxBomb,
  buildGzipBomb,
  buildNestedDocx,
  buildPdfBomb,
  buildPdfWithManyOperators,
  buildPptxBomb,
  buildXlsxBomb,
  gzipText,
  lzwBomb,
  lzwEncode,
  pdfWithContentStream,
} from '../testing/bomb-builders.js';
import { buildXlsx } from '../testing/office-builders.js';
import { extractText } from './extract-text.js';
import { ExtractionError, extractionErrors } from './extraction-error.js';

/**
 * Decompression bombs in every format, read in this thread: each must stop while inflating, at the
 * unpack limit (64 MiB), long before its own size, and fail the file with the reason the owner sees.
 * (The sandbox tests read the same files in worker threads, with the memory cap and time limit.)
 */
const failure = async (bytes: Uint8Array, kind: KnowledgeFileKind) => {
  const error = await extractText(bytes, kind, `bomb.${kind}`).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ExtractionError);
  return error as ExtractionError;
};

const unpacked = extractionErrors.unpackedTooLarge().reason;
const MiB = 1024 * 1024;

describe('decompression bombs are stopped while inflating', () => {
  it('a DOCX whose word/document.xml unpacks to 190 MB, whether its zip directory tells the truth or lies', async () => {
    expect(unpacked).toMatch(/too large when unpacked/);
    const honest = await buildDocxBomb();
    expect(honest.length).toBeLessThan(1024 * 1024);
    expect((await failure(honest, 'docx')).reason).toBe(unpacked);
    expect((await failure(await buildDocxBomb(undefined, { declaredSize: 1000 }), 'docx')).reason).toBe(unpacked);
  });

  it('an XLSX with a 190 MB sheet and a PPTX with a 190 MB slide (directories claiming 1 KB)', async () => {
    expect((await failure(await buildXlsxBomb(undefined, { declaredSize: 1000 }), 'xlsx')).reason).toBe(unpacked);
    expect((await failure(await buildPptxBomb(undefined, { declaredSize: 1000 }), 'pptx')).reason).toBe(unpacked);
  });

  it('a PDF whose one content stream unpacks to 200 MiB, also when the stream calls itself an image', async () => {
    const bomb = await buildPdfBomb();
    expect(bomb.length).toBeLessThan(300 * 1024);
    expect((await failure(bomb, 'pdf')).reason).toBe(unpacked);
    // pdf.js reads a page's /Contents whatever the stream's dictionary says, so the label must not exempt it.
    expect(
      (
        await failure(
          await buildPdfBomb(200 * MiB, { contentDictionary: '/Type /XObject /Subtype /Image /Width 1 /Height 1' }),
          'pdf',
        )
      ).reason,
    ).toBe(unpacked);
  });

  it('a PDF whose content stream is an LZW bomb, while an ordinary LZW-compressed PDF still reads', async () => {
    const bomb = pdfWithContentStream(lzwBomb(80 * MiB), 'LZWDecode');
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect((await failure(bomb, 'pdf')).reason).toBe(unpacked);
    // A dictionary padded far beyond any real one must not hide its filter.
    const padded = pdfWithContentStream(lzwBomb(80 * MiB), 'LZWDecode', {
      contentDictionary: `/Padding [${'0 '.repeat(100_000)}]`,
    });
    expect((await failure(padded, 'pdf')).reason).toBe(unpacked);
    const content = Buffer.from('BT /F1 11 Tf 72 700 Td (Opening hours: Sunday to Thursday.) Tj ET\n');
    expect((await extractText(pdfWithContentStream(lzwEncode(content), 'LZWDecode'), 'pdf', 'lzw.pdf')).text).toBe(
      'Opening hours: Sunday to Thursday.',
    );
  });

  it('a gzip-compressed text that unpacks to 200 MiB, while a small gzip-compressed text is read as text', async () => {
    expect((await failure(await buildGzipBomb(), 'txt')).reason).toBe(unpacked);
    expect((await extractText(gzipText('Delivery is free above 300 shekels.'), 'txt', 'notes.txt')).text).toBe(
      'Delivery is free above 300 shekels.',
    );
  });
});

describe('text is counted while it is extracted', () => {
  it('a Word document under the unpack limit but with too much text is refused before mammoth reads it', async () => {
    const error = await failure(await buildDocxBomb(40 * 1000 * 1000), 'docx');
    expect(error.reason).toBe(extractionErrors.tooLarge().reason);
  });

  it('a PDF page of 1.3 million placed letters is refused as too much text while pdf.js is still streaming it', async () => {
    // Under the unpack limit (about 45 MB of operators): only the streamed count can stop it early. Stopping
    // must not make pdf.js throw out of its own callbacks (an uncaught error would end this process).
    const started = performance.now();
    expect((await failure(await buildPdfWithManyOperators(1_300_000), 'pdf')).reason).toBe(
      extractionErrors.tooLarge().reason,
    );
    expect(performance.now() - started).toBeLessThan(45_000);
  }, 60_000);

  it('a small sheet whose long header would repeat on every row is refused as it is written', async () => {
    const header = 'Product description '.repeat(500);
    const bytes = buildXlsx([
      { name: 'Sheet', rows: [[header], ...Array.from({ length: 200 }, (_, i) => [`item ${i}`])] },
    ]);
    expect(bytes.length).toBeLessThan(20 * 1024);
    expect((await failure(bytes, 'xlsx')).reason).toBe(extractionErrors.tooLarge().reason);
  });
});

describe('pathological structure', () => {
  it('a 33 KB Word document of two million nested paragraphs is refused as damaged without being parsed by mammoth', async () => {
    const bytes = buildNestedDocx();
    expect(bytes.length).toBeLessThan(64 * 1024);
    const error = await failure(bytes, 'docx');
    expect(error.failure).toBe('corrupt');
  });
});
